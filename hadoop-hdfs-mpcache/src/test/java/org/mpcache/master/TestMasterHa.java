package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.StandbyException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.slave.inputcache.SlaveTestUtils;
import org.mpcache.tools.FreePorts;

/** NameNode HA: a master per NameNode, and only the active one's decides. */
@Timeout(300)
class TestMasterHa {
  @Test
  void onlyTheActiveNameNodesMasterAnswers() throws Exception {
    InetSocketAddress first = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    InetSocketAddress second = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    // As real HA clusters are configured: fixed RPC ports per NameNode, each master found by its
    // NameNode's, never by dfs.ha.namenode.id (MasterAddresses.own). Both share 127.0.0.1.
    MiniDFSNNTopology topology = new MiniDFSNNTopology().addNameservice(
        new MiniDFSNNTopology.NSConf("ns1")
            .addNN(new MiniDFSNNTopology.NNConf("nn1")
                .setIpcPort(FreePorts.outsideEphemeralRange())
                .setHttpPort(FreePorts.outsideEphemeralRange()))
            .addNN(new MiniDFSNNTopology.NNConf("nn2")
                .setIpcPort(FreePorts.outsideEphemeralRange())
                .setHttpPort(FreePorts.outsideEphemeralRange())));
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn1", NetUtils.getHostPortString(first));
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn2", NetUtils.getHostPortString(second));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h");
    try (CacheTestCluster cluster = CacheTestCluster.start("ha", conf, 1, null, topology)) {
      InputCache slave = cluster.cache(0);
      cluster.mini().transitionToActive(0);
      waitRegisteredWith(slave, first);

      cluster.mini().transitionToStandby(0);
      cluster.mini().transitionToActive(1);
      waitRegisteredWith(slave, second);
      RemoteException standby = assertThrows(RemoteException.class, () -> report(conf, first));
      assertTrue(standby.getClassName().equals(StandbyException.class.getName()),
          standby.toString());
      assertTrue(standby.getMessage().contains("not active"), standby.getMessage());
      report(conf, second);
    }
  }

  private static void waitRegisteredWith(InputCache slave, InetSocketAddress master)
      throws Exception {
    GenericTestUtils.waitFor(() -> {
      SlaveTestUtils.heartbeat(slave);
      return slave.arbiterState().endsWith(":" + master.getPort());
    }, 100, 60_000, "the slave to register with the master at " + master);
  }

  private static void report(Configuration conf, InetSocketAddress master) throws IOException {
    try (MasterProtocolClientSideTranslatorPB client =
        MasterProtocolClientSideTranslatorPB.connect(conf, master, 10_000)) {
      client.report();
    }
  }
}
