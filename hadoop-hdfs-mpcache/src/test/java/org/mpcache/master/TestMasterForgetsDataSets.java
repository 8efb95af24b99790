package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;

/**
 * The master in a NameNode forgets the data sets jobs stopped reading (docs/architecture.md,
 * "Forgetting data sets"): a thousand directories read once leave nothing in its tables after
 * the idle expiry but the data set that holds a copy; beyond its cap on tracked data sets, the
 * least recently seen go at once.
 */
@Timeout(300)
class TestMasterForgetsDataSets {
  private static final int DATA_SETS = 1_000;
  private CacheTestCluster cluster;
  private Configuration conf;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static int trackedDataSets() {
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    return MetricsAsserts.getIntGauge("TrackedDataSets", metrics);
  }

  /** A master (idle expiry {@code idle}) and one slave whose heartbeats are by hand. */
  private InetSocketAddress start(String idle, int maxTracked) throws Exception {
    InetSocketAddress masterAddress =
        new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MpCacheMasterPlugin.class.getName());
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h");
    conf.set(DFS_MPCACHE_CAPACITY_KEY, "600k"); // 2 blocks with their checksums
    conf.set(DFS_MPCACHE_MASTER_DATASET_IDLE_KEY, idle);
    conf.setInt(DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY, maxTracked);
    // A client closing a file asks again soon for the DataNode's block report: a thousand files
    // are written in seconds, not minutes.
    conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, 5);
    conf.set(DFS_MPCACHE_MASTER_EXPIRY_KEY, "10m"); // the slave's heartbeats are by hand here
    cluster = CacheTestCluster.start("forgets", conf, 1, null);
    cluster.waitMasterActive(conf, masterAddress);
    return masterAddress;
  }

  /**
   * Writes {@code dataSets} directories of a file each, and has the slave report a read of
   * each (misses it decided alone), as it does in its heartbeats: the master resolves each in
   * the NameNode's namespace and records its data set.
   */
  private void readOnce(InetSocketAddress masterAddress, int dataSets) throws Exception {
    long[] blocks = new long[dataSets];
    for (int i = 0; i < dataSets; i++) {
      Path file = new Path("/sets/d" + i + "/part-0");
      cluster.write(file, 100, i);
      blocks[i] = cluster.blocks(file).get(0).getBlock().getBlockId();
    }
    DataNode dataNode = cluster.mini().getDataNodes().get(0);
    SlaveUsage usage = CacheTestCluster.ssdCache(dataNode).usage();
    MasterCalls.as(UserGroupInformation.getCurrentUser(), conf, masterAddress,
        master -> master.heartbeat(dataNode.getDatanodeUuid(), usage, new long[0], blocks,
            new long[0], new long[0]));
  }

  /** The master still knows the data set holding a copy, and the cache kept it. */
  private void assertCachedDataSetKept(InetSocketAddress masterAddress, Path cached)
      throws Exception {
    assertTrue(cluster.isCached(cluster.blocks(cached).get(0)), "the cache kept its copy");
    MasterReport report = MasterCalls.as(UserGroupInformation.getCurrentUser(), conf,
        masterAddress, MpCacheMasterProtocol::report);
    assertEquals(List.of("/sets/cached"),
        report.dataSets().stream().map(DataSetReport::path).toList(),
        "the master still knows the data set holding a copy");
  }

  @Test
  void aThousandDataSetsReadOnceAreForgottenAfterTheIdleExpiry() throws Exception {
    InetSocketAddress masterAddress = start("2s", Integer.MAX_VALUE);
    Path cached = new Path("/sets/cached/part-0");
    cluster.writeCached(cached, 100, 0);
    readOnce(masterAddress, DATA_SETS);
    int tracked = trackedDataSets();
    assertTrue(tracked >= DATA_SETS, "each data set read is recorded: " + tracked);

    GenericTestUtils.waitFor(() -> {
      cluster.heartbeatAll(); // heartbeats forget
      return trackedDataSets() <= 8;
    }, 200, 60_000, "the master to forget the idle data sets");
    assertCachedDataSetKept(masterAddress, cached);
  }

  /**
   * Issue 49's third defect: whatever users read within the idle expiry stayed in the
   * NameNode's heap. Beyond {@code dfs.mpcache.master.dataset.max-tracked} the least recently
   * seen data sets go at once, except one holding a copy (seen first, so looked at first).
   */
  @Test
  void dataSetsBeyondTheCapAreForgottenAtOnceButNotOneHoldingACopy() throws Exception {
    int cap = 50;
    int read = 300;
    InetSocketAddress masterAddress = start("1d", cap);
    Path cached = new Path("/sets/cached/part-0");
    cluster.writeCached(cached, 100, 0);
    readOnce(masterAddress, read);

    int tracked = trackedDataSets();
    assertTrue(tracked <= 4 * cap, "records of at most " + cap + " data sets: " + tracked);
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    long forgotten = MetricsAsserts.getLongCounter("DataSetsForgottenOverCap", metrics);
    assertEquals(read + 1 - cap, forgotten, "one forgotten for each data set beyond the cap");
    assertCachedDataSetKept(masterAddress, cached);
  }
}
