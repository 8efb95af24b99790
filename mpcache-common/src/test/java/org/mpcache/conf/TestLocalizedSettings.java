package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestLocalizedSettings {

  private static Configuration conf(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, "/ssd/yarn-local");
    if (key != null) {
      conf.set(key, value);
    }
    return conf;
  }

  @Test
  void defaultsGiveTheTunerThePapersGuardAndALoopbackAddress() throws Exception {
    LocalizedSettings settings = LocalizedSettings.from(conf(null, null));
    assertEquals(List.of(new File("/ssd/yarn-local")), settings.dirs());
    assertTrue(settings.enabled());
    assertEquals("127.0.0.1", settings.address().getHostString());
    assertEquals(0, settings.address().getPort());
    assertEquals(0.5, settings.guard());
    assertEquals(DFS_MPCACHE_POOL_SHARE_DEFAULT, settings.poolShare());
    assertEquals(DFS_MPCACHE_LOCALIZED_LEASE_DEFAULT_MS, settings.leaseMillis());
  }

  @Test
  void noDirsMeansNoLocalizedCaching() throws Exception {
    assertFalse(LocalizedSettings.from(new Configuration(false)).enabled());
  }

  @Test
  void eachBadValueIsRejectedNamingItsKey() {
    assertRejected(conf(DFS_MPCACHE_LOCALIZED_DIRS_KEY, "relative"),
        DFS_MPCACHE_LOCALIZED_DIRS_KEY, "'relative' is not an absolute path");
    assertRejected(conf(DFS_MPCACHE_POOL_SHARE_KEY, "1.5"), DFS_MPCACHE_POOL_SHARE_KEY,
        "must be a share in [0, 1], got 1.5");
    assertRejected(conf(DFS_MPCACHE_POOL_GUARD_KEY, "half"), DFS_MPCACHE_POOL_GUARD_KEY,
        "cannot parse 'half' as a number");
    assertRejected(conf(DFS_MPCACHE_LOCALIZED_LEASE_KEY, "0s"), DFS_MPCACHE_LOCALIZED_LEASE_KEY,
        "must be above 0, got '0s'");
    assertRejected(conf(DFS_MPCACHE_LOCALIZED_ADDRESS_KEY, "0.0.0.0:0"),
        DFS_MPCACHE_LOCALIZED_ADDRESS_KEY, "'0.0.0.0:0' is not a loopback address: the channel"
            + " serves the task JVMs of its own node only");
    Configuration both = conf(DFS_MPCACHE_POOL_SHARE_KEY, "0.8");
    both.set(DFS_MPCACHE_LOCALIZED_SHARE_KEY, "0.3");
    assertRejected(both, DFS_MPCACHE_POOL_SHARE_KEY, "with " + DFS_MPCACHE_LOCALIZED_SHARE_KEY
        + " it exceeds the whole cache: 0.8 + 0.3 > 1");
  }

  private static void assertRejected(Configuration conf, String key, String why) {
    InvalidSettingException e =
        assertThrows(InvalidSettingException.class, () -> LocalizedSettings.from(conf));
    assertEquals(key, e.getKey());
    assertEquals(key + ": " + why, e.getMessage());
  }
}
