package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.absoluteDirs;
import static org.mpcache.conf.ConfValues.nonNegativeInt;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.util.List;

import org.apache.hadoop.conf.Configuration;

/** The cache slave's settings, parsed and checked once at DataNode start-up. */
public record SlaveSettings(List<File> dirs, long capacityBytes, int fillThreads, int fillQueue) {

  public SlaveSettings {
    dirs = List.copyOf(dirs);
  }

  /** True when the capacity is derived from the directories' free space. */
  public boolean autoCapacity() {
    return capacityBytes == 0;
  }

  public static boolean isEnabled(Configuration conf) {
    return conf.getBoolean(DFS_MPCACHE_ENABLED_KEY, DFS_MPCACHE_ENABLED_DEFAULT);
  }

  public static SlaveSettings from(Configuration conf) throws InvalidSettingException {
    List<File> dirs = absoluteDirs(conf, DFS_MPCACHE_DIRS_KEY);
    if (dirs.isEmpty()) {
      throw new InvalidSettingException(DFS_MPCACHE_DIRS_KEY,
          "no SSD directory configured (comma-separated absolute paths expected)");
    }
    long capacity;
    String rawCapacity = conf.getTrimmed(DFS_MPCACHE_CAPACITY_KEY, "0");
    try {
      capacity = conf.getLongBytes(DFS_MPCACHE_CAPACITY_KEY, DFS_MPCACHE_CAPACITY_DEFAULT);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(DFS_MPCACHE_CAPACITY_KEY, "cannot parse '" + rawCapacity
          + "' as a size in bytes (examples: 8589934592, 8g, 512m)");
    }
    if (capacity < 0) {
      throw new InvalidSettingException(DFS_MPCACHE_CAPACITY_KEY,
          "must be >= 0 (0 = 90% of the directories' free space), got '" + rawCapacity + "'");
    }
    int threads = nonNegativeInt(conf, DFS_MPCACHE_FILL_THREADS_KEY, DFS_MPCACHE_FILL_THREADS_DEFAULT);
    int queue = nonNegativeInt(conf, DFS_MPCACHE_FILL_QUEUE_KEY, DFS_MPCACHE_FILL_QUEUE_DEFAULT);
    return new SlaveSettings(dirs, capacity, threads, queue);
  }
}
