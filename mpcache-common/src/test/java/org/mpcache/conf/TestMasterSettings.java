package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.Test;

/** The master's and the slave link's keys: defaults, and bad values named with their key. */
class TestMasterSettings {
  /** The NameNode's RPC address, as NameNode.getNameNodeAddress gives it to the plugin. */
  private static final InetSocketAddress NAMENODE = new InetSocketAddress("127.0.0.1", 8020);

  private static MasterSettings settings(Configuration conf) throws InvalidSettingException {
    return MasterSettings.from(conf, NAMENODE);
  }

  private static Configuration conf(String... keyValues) {
    Configuration conf = new Configuration(false);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, "nn.example.com:9877");
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    return conf;
  }

  private static void assertRejected(String key, String value, String why) {
    InvalidSettingException e = assertThrows(InvalidSettingException.class,
        () -> settings(conf(key, value)));
    assertEquals(key, e.getKey());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void defaults() throws Exception {
    MasterSettings settings = settings(conf());
    assertEquals(9877, settings.bindAddress().getPort());
    assertEquals("wholeset", settings.policy());
    assertEquals(DFS_MPCACHE_MASTER_FULL_BONUS_DEFAULT, settings.fullBonus());
    assertEquals(DFS_MPCACHE_MASTER_BACK_TO_BACK_DEFAULT, settings.backToBackDistance());
    assertEquals("directory", settings.dataSet());
    assertEquals(DFS_MPCACHE_MASTER_RECOVERY_DEFAULT_MS, settings.recoveryMillis());
    assertEquals(DFS_MPCACHE_MASTER_EXPIRY_DEFAULT_MS, settings.expiryMillis());
    assertEquals(24L * 60 * 60 * 1000, settings.dataSetIdleMillis());
    assertEquals(maxTrackedDataSetsFor(Runtime.getRuntime().maxMemory()),
        settings.maxTrackedDataSets());
    assertEquals(83_886, maxTrackedDataSetsFor(8L << 30), "2 % of 8 GB at 2 KB a data set");
    assertEquals(10_000, maxTrackedDataSetsFor(64L << 20), "never below 10,000");
    assertEquals(500, settings(conf(DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY, "500"))
        .maxTrackedDataSets());
    assertTrue(settings.cachedPaths().caches("/data/in"));
    assertFalse(settings.cachedPaths().caches("/tmp/hadoop-yarn/staging/alice/.staging/job_1"));
  }

  @Test
  void cachedPathsExcludeHadoopsOwnDirsAndTheConfiguredOnes() throws Exception {
    CachedPaths paths = settings(conf(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/scratch/",
        DFS_MPCACHE_MASTER_INCLUDE_KEY, "/data,/scratch")).cachedPaths();
    assertTrue(paths.caches("/data"));
    assertTrue(paths.caches("/data/sets/wiki"));
    assertFalse(paths.caches("/database"), "prefixes match whole path components");
    assertFalse(paths.caches("/scratch/x"), "an exclusion wins over an inclusion");
    assertFalse(paths.caches("/user/alice/in"), "not included");
    CachedPaths all = settings(conf()).cachedPaths();
    assertTrue(all.caches("/user/alice/in"));
    assertTrue(all.caches("/tmp/logs2"));
    assertFalse(all.caches("/tmp/logs/alice/logs/application_1"));
  }

  /** The key takes what the policies' registry takes: its grammar, not a list of names. */
  @Test
  void thePolicyKeyTakesEveryNameThePoliciesRegistryTakes() throws Exception {
    for (String policy : new String[] {"wholeset:50000:0.1:3", "lfu+none", "LRU+admission"}) {
      Configuration conf = conf();
      conf.set(DFS_MPCACHE_MASTER_POLICY_KEY, policy);
      assertEquals(policy, settings(conf).policy());
    }
  }

  @Test
  void badValuesNameTheirKey() {
    assertRejected(DFS_MPCACHE_MASTER_ADDRESS_KEY, "", "not set");
    assertRejected(DFS_MPCACHE_MASTER_ADDRESS_KEY, "nn.example.com", "not a host:port");
    assertRejected(DFS_MPCACHE_MASTER_POLICY_KEY, "arc", "unknown replacement policy 'arc'");
    assertRejected(DFS_MPCACHE_MASTER_POLICY_KEY, "wholeset:soon", "replacement policy"
        + " 'wholeset:soon'");
    assertRejected(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, "lots", "cannot parse 'lots' as a number");
    assertRejected(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, "-1", "must be a finite number >= 0");
    assertRejected(DFS_MPCACHE_MASTER_BACK_TO_BACK_KEY, "0", "must be above 0");
    assertRejected(DFS_MPCACHE_MASTER_DATASET_KEY, "block", "is not one of");
    assertRejected(DFS_MPCACHE_MASTER_RECOVERY_KEY, "soon", "as a duration");
    assertRejected(DFS_MPCACHE_MASTER_EXPIRY_KEY, "0s", "must be above 0");
    assertRejected(DFS_MPCACHE_MASTER_DATASET_IDLE_KEY, "0d", "must be above 0");
    assertRejected(DFS_MPCACHE_MASTER_HISTORY_KEY, "-5", "must be >= 0");
    assertRejected(DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY, "-1", "must be >= 0");
    assertRejected(DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY, "many", "as an integer");
    assertRejected(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/scratch,tmp", "'tmp' is not an absolute");
    assertRejected(DFS_MPCACHE_MASTER_INCLUDE_KEY, "data", "'data' is not an absolute");
  }

  /** Two NameNodes on one host, no dfs.ha.namenode.id: each master is found by its RPC port. */
  private static Configuration haConf() {
    Configuration conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_NAMESERVICES, "ns");
    conf.set(DFSConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + ".ns", "a,b");
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + ".ns.a", "127.0.0.1:8020");
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + ".ns.b", "127.0.0.1:8021");
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns.a", "127.0.0.1:9877");
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns.b", "127.0.0.1:9878");
    return conf;
  }

  @Test
  void withHaEachNameNodesMasterIsFoundByTheNameNodesRpcAddress() throws Exception {
    Configuration conf = haConf();
    assertEquals(9877, MasterSettings.from(conf, NAMENODE).bindAddress().getPort());
    assertEquals(9878, MasterSettings.from(conf, new InetSocketAddress("127.0.0.1", 8021))
        .bindAddress().getPort());
    assertEquals(List.of(9877, 9878), MasterLinkSettings.from(conf).masters().stream()
        .map(InetSocketAddress::getPort).toList(), "slaves and clients ask both");
  }

  @Test
  void withHaAMasterThatCannotTellItsNameNodeSaysWhy() {
    InvalidSettingException stranger = assertThrows(InvalidSettingException.class,
        () -> MasterSettings.from(haConf(), new InetSocketAddress("127.0.0.1", 8030)));
    assertTrue(stranger.getMessage().contains(":8030"), stranger.getMessage());
    Configuration missing = haConf();
    missing.unset(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns.b");
    InvalidSettingException unset = assertThrows(InvalidSettingException.class,
        () -> MasterSettings.from(missing, new InetSocketAddress("127.0.0.1", 8021)));
    assertEquals(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns.b", unset.getKey());
    InvalidSettingException list = assertThrows(InvalidSettingException.class,
        () -> settings(conf(DFS_MPCACHE_MASTER_ADDRESS_KEY, "nn1:9877,nn2:9878")));
    assertTrue(list.getMessage().contains(".<nameservice>.<namenode id>"), list.getMessage());
  }

  @Test
  void slavesWithoutAnAddressDecideAlone() throws Exception {
    assertFalse(MasterLinkSettings.from(new Configuration(false)).hasMaster());
    MasterLinkSettings link = MasterLinkSettings.from(conf(DFS_MPCACHE_HEARTBEAT_KEY, "500ms"));
    assertTrue(link.hasMaster());
    assertEquals(500, link.heartbeatMillis());
    InvalidSettingException e = assertThrows(InvalidSettingException.class,
        () -> MasterLinkSettings.from(conf(DFS_MPCACHE_REPORT_BATCH_KEY, "many")));
    assertEquals(DFS_MPCACHE_REPORT_BATCH_KEY, e.getKey());
  }

  /** A bare heartbeat interval is seconds, as dfs.heartbeat.interval. */
  @Test
  void aBareHeartbeatIntervalIsSeconds() throws Exception {
    assertEquals(5_000, MasterLinkSettings.from(conf(DFS_MPCACHE_HEARTBEAT_KEY, "5"))
        .heartbeatMillis());
    Configuration withDefaults = new Configuration();
    assertEquals(DFS_MPCACHE_HEARTBEAT_DEFAULT_MS,
        MasterLinkSettings.from(withDefaults).heartbeatMillis());
    withDefaults.set(DFS_MPCACHE_HEARTBEAT_KEY, "2");
    assertEquals(2_000, MasterLinkSettings.from(withDefaults).heartbeatMillis());
  }
}
