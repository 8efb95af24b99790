package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * The yarn-mpcache framework gives each job it submits the cache-aware file system, so no shared
 * site file has to name a class that processes without mpCache's jars cannot load.
 */
class TestMpCacheClientProtocolProvider {
  private final MpCacheClientProtocolProvider provider = new MpCacheClientProtocolProvider();

  private static Configuration conf(String framework) {
    Configuration conf = new Configuration();
    conf.set(MRConfig.FRAMEWORK_NAME, framework);
    return conf;
  }

  @Test
  void aJobSubmittedWithMpCacheReadsThroughTheCacheAwareFileSystem() throws Exception {
    Configuration conf = conf(MpCacheClientProtocolProvider.FRAMEWORK_NAME);
    ClientProtocol runner = provider.create(conf);
    assertInstanceOf(MpCacheYarnRunner.class, runner);
    assertEquals(MpCacheDistributedFileSystem.class.getName(), conf.get("fs.hdfs.impl"));
    provider.close(runner);
  }

  @Test
  void aJobsOwnFileSystemChoiceIsKept() throws Exception {
    Configuration conf = conf(MpCacheClientProtocolProvider.FRAMEWORK_NAME);
    conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    provider.create(conf);
    assertEquals(DistributedFileSystem.class.getName(), conf.get("fs.hdfs.impl"));
  }

  @Test
  void otherFrameworksAreLeftAlone() throws Exception {
    Configuration conf = conf("yarn");
    assertNull(provider.create(conf));
    assertNull(conf.get("fs.hdfs.impl"));
  }
}
