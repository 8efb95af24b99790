package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.absoluteDirs;
import static org.mpcache.conf.ConfValues.nonNegativeBytes;
import static org.mpcache.conf.ConfValues.nonNegativeInt;
import static org.mpcache.conf.ConfValues.nonNegativeMillis;
import static org.mpcache.conf.ConfValues.positiveMillis;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * The cache slave's settings, parsed and checked once at DataNode start-up.
 *
 * @param dirPermission the DataNode's {@code dfs.datanode.data.dir.perm}, given to the cache's
 *     dirs
 * @param admissionWaitMillis how long a finished fill waits for the arbiter's answer (twice the
 *     master's RPC timeout: the master link answers locally when the master does not)
 * @param handoutWaiters how many of the DataNode's IPC handlers may wait for a short-circuit
 *     hand-out's verification at once: half of {@code dfs.datanode.handler.count}, at least one
 */
public record SlaveSettings(List<File> dirs, long capacityBytes, int fillThreads, int fillQueue,
    long handoutMaxAgeMillis, long scrubBytesPerSecond, long dirCheckMillis, long ioTimeoutMillis,
    Set<PosixFilePermission> dirPermission, long admissionWaitMillis, int handoutWaiters) {

  public SlaveSettings {
    dirs = List.copyOf(dirs);
    dirPermission = Set.copyOf(dirPermission);
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
    long capacity = nonNegativeBytes(conf, DFS_MPCACHE_CAPACITY_KEY, DFS_MPCACHE_CAPACITY_DEFAULT,
        "0 = 90% of the directories' free space");
    int threads = nonNegativeInt(conf, DFS_MPCACHE_FILL_THREADS_KEY, DFS_MPCACHE_FILL_THREADS_DEFAULT);
    int queue = nonNegativeInt(conf, DFS_MPCACHE_FILL_QUEUE_KEY, DFS_MPCACHE_FILL_QUEUE_DEFAULT);
    long maxAge = nonNegativeMillis(conf, DFS_MPCACHE_HANDOUT_MAX_AGE_KEY,
        DFS_MPCACHE_HANDOUT_MAX_AGE_DEFAULT_MS);
    long scrubRate = nonNegativeBytes(conf, DFS_MPCACHE_SCRUB_RATE_KEY,
        DFS_MPCACHE_SCRUB_RATE_DEFAULT, "0 = no scrubbing");
    long check = positiveMillis(conf, DFS_MPCACHE_DIR_CHECK_KEY, DFS_MPCACHE_DIR_CHECK_DEFAULT_MS);
    long ioTimeout = positiveMillis(conf, DFS_MPCACHE_DIR_IO_TIMEOUT_KEY,
        DFS_MPCACHE_DIR_IO_TIMEOUT_DEFAULT_MS);
    long masterTimeout = positiveMillis(conf, DFS_MPCACHE_MASTER_TIMEOUT_KEY,
        DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS);
    int handlers = conf.getInt(DFSConfigKeys.DFS_DATANODE_HANDLER_COUNT_KEY,
        DFSConfigKeys.DFS_DATANODE_HANDLER_COUNT_DEFAULT);
    return new SlaveSettings(dirs, capacity, threads, queue, maxAge, scrubRate, check, ioTimeout,
        dataDirPermission(conf), 2 * masterTimeout, Math.max(1, handlers / 2));
  }

  /** The DataNode's data-dir permission, which the cache's own dirs get too. */
  private static Set<PosixFilePermission> dataDirPermission(Configuration conf)
      throws InvalidSettingException {
    String raw = conf.getTrimmed(DFSConfigKeys.DFS_DATANODE_DATA_DIR_PERMISSION_KEY,
        DFSConfigKeys.DFS_DATANODE_DATA_DIR_PERMISSION_DEFAULT);
    try {
      return PosixFilePermissions.fromString(new FsPermission(raw).toString());
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(DFSConfigKeys.DFS_DATANODE_DATA_DIR_PERMISSION_KEY,
          "cannot parse '" + raw + "' as a permission (example: 700)");
    }
  }
}
