package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.Test;
import org.mpcache.master.CachedPaths;

/** The master's and the slave link's keys: defaults, and bad values named with their key. */
class TestMasterSettings {
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
        () -> MasterSettings.from(conf(key, value)));
    assertEquals(key, e.getKey());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void defaults() throws Exception {
    MasterSettings settings = MasterSettings.from(conf());
    assertEquals(9877, settings.bindAddress().getPort());
    assertEquals("wholeset", settings.policy());
    assertEquals(DFS_MPCACHE_MASTER_FULL_BONUS_DEFAULT, settings.fullBonus());
    assertEquals(DFS_MPCACHE_MASTER_BACK_TO_BACK_DEFAULT, settings.backToBackDistance());
    assertEquals("directory", settings.dataSet());
    assertEquals(DFS_MPCACHE_MASTER_RECOVERY_DEFAULT_MS, settings.recoveryMillis());
    assertEquals(DFS_MPCACHE_MASTER_EXPIRY_DEFAULT_MS, settings.expiryMillis());
    assertTrue(settings.cachedPaths().caches("/data/in"));
    assertFalse(settings.cachedPaths().caches("/tmp/hadoop-yarn/staging/alice/.staging/job_1"));
  }

  @Test
  void cachedPathsExcludeHadoopsOwnDirsAndTheConfiguredOnes() throws Exception {
    CachedPaths paths = MasterSettings.from(conf(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/scratch/",
        DFS_MPCACHE_MASTER_INCLUDE_KEY, "/data,/scratch")).cachedPaths();
    assertTrue(paths.caches("/data"));
    assertTrue(paths.caches("/data/sets/wiki"));
    assertFalse(paths.caches("/database"), "prefixes match whole path components");
    assertFalse(paths.caches("/scratch/x"), "an exclusion wins over an inclusion");
    assertFalse(paths.caches("/user/alice/in"), "not included");
    CachedPaths all = MasterSettings.from(conf()).cachedPaths();
    assertTrue(all.caches("/user/alice/in"));
    assertTrue(all.caches("/tmp/logs2"));
    assertFalse(all.caches("/tmp/logs/alice/logs/application_1"));
  }

  @Test
  void badValuesNameTheirKey() {
    assertRejected(DFS_MPCACHE_MASTER_ADDRESS_KEY, "", "not set");
    assertRejected(DFS_MPCACHE_MASTER_ADDRESS_KEY, "nn.example.com", "not a host:port");
    assertRejected(DFS_MPCACHE_MASTER_POLICY_KEY, "arc", "'arc' is not one of");
    assertRejected(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, "lots", "cannot parse 'lots' as a number");
    assertRejected(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, "-1", "must be a finite number >= 0");
    assertRejected(DFS_MPCACHE_MASTER_BACK_TO_BACK_KEY, "0", "must be above 0");
    assertRejected(DFS_MPCACHE_MASTER_DATASET_KEY, "block", "is not one of");
    assertRejected(DFS_MPCACHE_MASTER_RECOVERY_KEY, "soon", "as a duration");
    assertRejected(DFS_MPCACHE_MASTER_EXPIRY_KEY, "0s", "must be above 0");
    assertRejected(DFS_MPCACHE_MASTER_HISTORY_KEY, "-5", "must be >= 0");
    assertRejected(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/scratch,tmp", "'tmp' is not an absolute");
    assertRejected(DFS_MPCACHE_MASTER_INCLUDE_KEY, "data", "'data' is not an absolute");
  }

  @Test
  void withHaEachNameNodeListensOnItsOwnAddress() throws Exception {
    Configuration conf = conf(DFS_MPCACHE_MASTER_ADDRESS_KEY, "nn1:9877,nn2:9878",
        DFSConfigKeys.DFS_NAMESERVICE_ID, "ns",
        DFSConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + ".ns", "a,b",
        DFSConfigKeys.DFS_HA_NAMENODE_ID_KEY, "b");
    assertEquals(9878, MasterSettings.from(conf).bindAddress().getPort());
    conf.set(DFSConfigKeys.DFS_HA_NAMENODE_ID_KEY, "c");
    assertThrows(InvalidSettingException.class, () -> MasterSettings.from(conf));
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
}
