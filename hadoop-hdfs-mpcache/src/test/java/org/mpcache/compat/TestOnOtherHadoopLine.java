package org.mpcache.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDatasetFactory;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.master.MpCacheMasterPlugin;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;
import org.slf4j.LoggerFactory;

/**
 * mpCache on a Hadoop of another release line: this JVM's Hadoop reports version 3.6.0 (the
 * {@code other-hadoop-line} execution of pom.xml puts a common-version-info.properties saying so
 * before hadoop-common's). Turned on in full, the DataNode serves as stock and the NameNode runs
 * no master, each saying why with both versions.
 */
@Timeout(180)
class TestOnOtherHadoopLine {
  @Test
  void theDataNodeServesAsStockAndTheNameNodeRunsNoMaster() throws Exception {
    assertEquals("3.6.0", VersionInfo.getVersion(),
        "run by the other-hadoop-line execution of pom.xml, which fakes the running version");
    LogCapturer datanodeLog = LogCapturer.captureLogs(
        LoggerFactory.getLogger(MpCacheFsDatasetFactory.class));
    LogCapturer namenodeLog = LogCapturer.captureLogs(
        LoggerFactory.getLogger(MpCacheMasterPlugin.class));
    InetSocketAddress master = new InetSocketAddress("127.0.0.1",
        FreePorts.outsideEphemeralRange());
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(master));
    try (CacheTestCluster cluster = CacheTestCluster.start("other-line", conf, 1, null)) {
      DataNode datanode = cluster.mini().getDataNodes().get(0);
      assertEquals("org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl",
          datanode.getFSDataset().getClass().getName(), "the stock dataset");
      FileSystem fs = cluster.mini().getFileSystem();
      Path file = new Path("/data/f");
      DFSTestUtil.createFile(fs, file, 4L * CacheTestCluster.BLOCK_SIZE, (short) 1, 7);
      DFSTestUtil.readFile(fs, file);
      DFSTestUtil.readFile(fs, file);
      for (LogCapturer log : new LogCapturer[] {datanodeLog, namenodeLog}) {
        String output = log.getOutput();
        assertTrue(output.contains("Hadoop 3.5.0") && output.contains("Hadoop 3.6.0"), output);
      }
      assertThrows(IOException.class, () -> {
        try (MasterProtocolClientSideTranslatorPB client =
            MasterProtocolClientSideTranslatorPB.connect(conf, master, 5_000)) {
          client.report();
        }
      }, "no master listens");
    }
  }
}
