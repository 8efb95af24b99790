package org.mpcache.locality;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;
import org.apache.hadoop.mapred.YARNRunner;
import org.mpcache.compat.HadoopRelease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits MapReduce jobs to YARN with mpCache's application master when
 * {@code mapreduce.framework.name} is {@value #FRAMEWORK_NAME} (found by Hadoop's Cluster through
 * META-INF/services): the one way to change the application master without changing jobs. It
 * also gives each job {@link MpCacheDistributedFileSystem} as {@code fs.hdfs.impl} unless the job
 * names another. On a Hadoop release line other than mpCache's, jobs get Hadoop's own
 * application master.
 */
public class MpCacheClientProtocolProvider extends ClientProtocolProvider {
  public static final String FRAMEWORK_NAME = "yarn-mpcache";
  static final String FS_HDFS_IMPL_KEY = "fs.hdfs.impl";

  private static final Logger LOG = LoggerFactory.getLogger(MpCacheClientProtocolProvider.class);

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    if (!FRAMEWORK_NAME.equals(conf.getTrimmed(MRConfig.FRAMEWORK_NAME))) {
      return null;
    }
    String mismatch = HadoopRelease.mismatch("mpCache's ApplicationMaster");
    if (mismatch != null) {
      LOG.warn("{}: jobs go to YARN with Hadoop's own", mismatch);
      return new YARNRunner(conf);
    }
    // The job's readers try SSD copies first (docs/operations.md): set here, per job, rather
    // than in core-site.xml, which processes without mpCache's jars read too.
    if (conf.get(FS_HDFS_IMPL_KEY) == null) {
      conf.set(FS_HDFS_IMPL_KEY, MpCacheDistributedFileSystem.class.getName());
    }
    return new MpCacheYarnRunner(conf);
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) {
    // Nothing held beyond the runner, as for YarnClientProtocolProvider.
  }
}
