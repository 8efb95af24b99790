package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestSlaveSettings {

  private static Configuration conf(String dirs, String capacity) {
    Configuration conf = new Configuration(false);
    if (dirs != null) {
      conf.set(DFS_MPCACHE_DIRS_KEY, dirs);
    }
    if (capacity != null) {
      conf.set(DFS_MPCACHE_CAPACITY_KEY, capacity);
    }
    return conf;
  }

  @Test
  void parsesDirsAndSizeSuffixes() throws Exception {
    SlaveSettings settings = SlaveSettings.from(conf(" /ssd1 , file:///ssd2", "2g"));
    assertEquals(List.of(new File("/ssd1"), new File("/ssd2")), settings.dirs());
    assertEquals(2L << 30, settings.capacityBytes());
    assertEquals(DFS_MPCACHE_FILL_THREADS_DEFAULT, settings.fillThreads());
  }

  @Test
  void zeroCapacityMeansDerivedFromFreeSpace() throws Exception {
    assertTrue(SlaveSettings.from(conf("/ssd", null)).autoCapacity());
  }

  @Test
  void eachBadValueIsRejectedNamingItsKey() {
    assertRejected(conf(null, null), DFS_MPCACHE_DIRS_KEY);
    assertRejected(conf("relative/dir", null), DFS_MPCACHE_DIRS_KEY);
    assertRejected(conf("/ssd", "lots"), DFS_MPCACHE_CAPACITY_KEY);
    assertRejected(conf("/ssd", "-5"), DFS_MPCACHE_CAPACITY_KEY);
    Configuration badThreads = conf("/ssd", null);
    badThreads.set(DFS_MPCACHE_FILL_THREADS_KEY, "two");
    assertRejected(badThreads, DFS_MPCACHE_FILL_THREADS_KEY);
  }

  private static void assertRejected(Configuration conf, String key) {
    InvalidSettingException e =
        assertThrows(InvalidSettingException.class, () -> SlaveSettings.from(conf));
    assertEquals(key, e.getKey());
    assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
  }
}
