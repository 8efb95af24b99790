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
    assertEquals(0, SlaveSettings.from(conf("/ssd", null)).capacityBytes(), "0: automatic");
  }

  @Test
  void eachBadValueIsRejectedNamingItsKey() {
    assertRejected(conf(null, null), DFS_MPCACHE_DIRS_KEY);
    assertRejected(conf("relative/dir", null), DFS_MPCACHE_DIRS_KEY);
    assertRejected(conf("/ssd", "lots"), DFS_MPCACHE_CAPACITY_KEY);
    assertRejected(conf("/ssd", "-5"), DFS_MPCACHE_CAPACITY_KEY);
    for (String[] bad : new String[][] {{DFS_MPCACHE_FILL_THREADS_KEY, "two"},
        {DFS_MPCACHE_HANDOUT_MAX_AGE_KEY, "-1s"}, {DFS_MPCACHE_HANDOUT_MAX_AGE_KEY, "soon"},
        {DFS_MPCACHE_SCRUB_RATE_KEY, "fast"}, {DFS_MPCACHE_SCRUB_RATE_KEY, "-1m"},
        {DFS_MPCACHE_DIR_CHECK_KEY, "0"}, {DFS_MPCACHE_DIR_IO_TIMEOUT_KEY, "never"},
        {org.apache.hadoop.hdfs.DFSConfigKeys.DFS_DATANODE_DATA_DIR_PERMISSION_KEY, "rwx"}}) {
      Configuration conf = conf("/ssd", null);
      conf.set(bad[0], bad[1]);
      assertRejected(conf, bad[0]);
    }
  }

  @Test
  void theSafetyDefaultsVerifyEveryHandOutAndScrub() throws Exception {
    SlaveSettings settings = SlaveSettings.from(conf("/ssd", null));
    assertEquals(0, settings.handoutMaxAgeMillis());
    assertEquals(32L << 20, settings.scrubBytesPerSecond());
    assertEquals(10_000, settings.ioTimeoutMillis());
    assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"),
        settings.dirPermission(), "the DataNode's own default, 700");
    assertEquals(5, settings.handoutWaiters(), "half the DataNode's 10 IPC handlers");
    Configuration oneHandler = conf("/ssd", null);
    oneHandler.setInt(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_DATANODE_HANDLER_COUNT_KEY, 1);
    assertEquals(1, SlaveSettings.from(oneHandler).handoutWaiters(), "at least one");
  }

  private static void assertRejected(Configuration conf, String key) {
    InvalidSettingException e =
        assertThrows(InvalidSettingException.class, () -> SlaveSettings.from(conf));
    assertEquals(key, e.getKey());
    assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
  }
}
