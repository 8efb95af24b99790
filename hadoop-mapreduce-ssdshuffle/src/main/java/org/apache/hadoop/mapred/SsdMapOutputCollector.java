package org.apache.hadoop.mapred;

import java.io.IOException;

import org.mpcache.compat.HadoopRelease;
import org.mpcache.shuffle.SsdFailoverFileSystem;
import org.mpcache.shuffle.SsdOutputFiles;

/**
 * Hadoop's map output buffer whose spills, map output and merge passes go to the node's SSD
 * when its cache slave grants the room ({@link SsdOutputFiles}), and move to an HDD dir when the
 * SSD fills as they are written ({@link SsdFailoverFileSystem}). Set cluster-wide as
 * {@code mapreduce.job.map.output.collector.class}. It lives in Hadoop's package because the
 * task's output files are a protected field of {@link Task}, and YarnChild fixes
 * {@code mapreduce.task.local.output.class} to YARN's own layout. On a Hadoop release line other
 * than mpCache's it refuses to start, and the task takes the next collector of the key (Hadoop's).
 */
public class SsdMapOutputCollector<K, V> extends MapTask.MapOutputBuffer<K, V> {
  @Override
  public void init(MapOutputCollector.Context context)
      throws IOException, ClassNotFoundException {
    String mismatch = HadoopRelease.mismatch("the SSD map output collector");
    if (mismatch != null) {
      throw new IOException(mismatch);
    }
    SsdOutputFiles files = new SsdOutputFiles();
    files.setConf(context.getJobConf());
    files.placeMergerPasses();
    context.getMapTask().mapOutputFile = files;
    super.init(new MapOutputCollector.Context(context.getMapTask(),
        files.failoverConf(), context.getReporter()));
  }
}
