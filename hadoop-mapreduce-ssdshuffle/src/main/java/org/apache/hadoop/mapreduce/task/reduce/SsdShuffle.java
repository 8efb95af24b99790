package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.mpcache.compat.HadoopRelease;
import org.mpcache.shuffle.SsdFailoverFileSystem;
import org.mpcache.shuffle.SsdOutputFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's shuffle whose on-disk map outputs and merges go to the node's SSD when its cache
 * slave grants the room ({@link SsdOutputFiles}), and move to an HDD dir when the SSD fills as
 * they are written ({@link SsdFailoverFileSystem}). Set cluster-wide as
 * {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}. On a Hadoop release line other than
 * mpCache's it is Hadoop's shuffle.
 */
public class SsdShuffle<K, V> extends Shuffle<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SsdShuffle.class);

  @Override
  protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
    String mismatch = HadoopRelease.mismatch("the SSD shuffle");
    if (mismatch != null) {
      LOG.warn(mismatch);
      return super.createMergeManager(context);
    }
    SsdOutputFiles files = new SsdOutputFiles();
    files.setConf(context.getJobConf());
    files.placeMergerPasses();
    JobConf failover = files.failoverConf();
    FileSystem localFs;
    try {
      localFs = FileSystem.getLocal(failover);
    } catch (IOException e) {
      LOG.warn("mpCache: a write that finds the SSD full fails as on stock Hadoop: {}",
          e.toString());
      failover = context.getJobConf();
      localFs = context.getLocalFS();
    }
    return new MergeManagerImpl<K, V>(context.getReduceId(), failover,
        localFs, files.mergeAllocator(), context.getReporter(), context.getCodec(),
        context.getCombinerClass(), context.getCombineCollector(),
        context.getSpilledRecordsCounter(), context.getReduceCombineInputCounter(),
        context.getMergedMapOutputsCounter(), this, context.getMergePhase(), files);
  }
}
