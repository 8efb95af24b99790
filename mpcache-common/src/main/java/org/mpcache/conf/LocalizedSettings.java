package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.absoluteDirs;
import static org.mpcache.conf.ConfValues.nonNegativeBytes;
import static org.mpcache.conf.ConfValues.share;
import static org.mpcache.conf.ConfValues.positiveMillis;
import static org.mpcache.conf.ConfValues.secretFile;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;

/**
 * The Dynamic Space Tuner's settings (localized data on the SSD), parsed and checked once at
 * DataNode start-up.
 *
 * @param dirs SSD dirs for intermediate data, also NodeManager local dirs; empty: tuner off
 * @param relaySecret what the NodeManager's relay proves itself with; null: tasks unproven
 * @param jobMaxShare share of what localized data may ever hold one job may be granted
 * @param attemptMaxShare the same for one task attempt
 * @param unitBytes the pool's unit; 0: {@code DynamicPool.unitFor} the cache and block size
 * @param ioTimeoutMillis how long the DataNode's start-up and shutdown wait for the dirs
 */
public record LocalizedSettings(List<File> dirs, InetSocketAddress address, double poolShare,
    double localizedShare, double guard, long leaseMillis, long evictionWaitMillis,
    long scanMillis, byte[] relaySecret, double jobMaxShare, double attemptMaxShare,
    long unitBytes, long ioTimeoutMillis) {

  public LocalizedSettings {
    dirs = List.copyOf(dirs);
    relaySecret = relaySecret == null ? null : relaySecret.clone();
  }

  @Override
  public byte[] relaySecret() {
    return relaySecret == null ? null : relaySecret.clone();
  }

  public boolean enabled() {
    return !dirs.isEmpty();
  }

  public static LocalizedSettings from(Configuration conf) throws InvalidSettingException {
    List<File> dirs = absoluteDirs(conf, DFS_MPCACHE_LOCALIZED_DIRS_KEY);
    String rawAddress = conf.getTrimmed(DFS_MPCACHE_LOCALIZED_ADDRESS_KEY,
        DFS_MPCACHE_LOCALIZED_ADDRESS_DEFAULT);
    InetSocketAddress address;
    try {
      address = NetUtils.createSocketAddr(rawAddress, 0, DFS_MPCACHE_LOCALIZED_ADDRESS_KEY);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(DFS_MPCACHE_LOCALIZED_ADDRESS_KEY,
          "'" + rawAddress + "' is not a host:port address");
    }
    if (address.isUnresolved() || !address.getAddress().isLoopbackAddress()) {
      throw new InvalidSettingException(DFS_MPCACHE_LOCALIZED_ADDRESS_KEY, "'" + rawAddress
          + "' is not a loopback address: the channel serves the task JVMs of its own node only");
    }
    double pool = share(conf, DFS_MPCACHE_POOL_SHARE_KEY, DFS_MPCACHE_POOL_SHARE_DEFAULT);
    double localized = share(conf, DFS_MPCACHE_LOCALIZED_SHARE_KEY,
        DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT);
    if (pool + localized > 1) {
      throw new InvalidSettingException(DFS_MPCACHE_POOL_SHARE_KEY, "with "
          + DFS_MPCACHE_LOCALIZED_SHARE_KEY + " it exceeds the whole cache: " + pool + " + "
          + localized + " > 1");
    }
    return new LocalizedSettings(dirs, address, pool, localized,
        share(conf, DFS_MPCACHE_POOL_GUARD_KEY, DFS_MPCACHE_POOL_GUARD_DEFAULT),
        positiveMillis(conf, DFS_MPCACHE_LOCALIZED_LEASE_KEY,
            DFS_MPCACHE_LOCALIZED_LEASE_DEFAULT_MS),
        positiveMillis(conf, DFS_MPCACHE_LOCALIZED_EVICTION_WAIT_KEY,
            DFS_MPCACHE_LOCALIZED_EVICTION_WAIT_DEFAULT_MS),
        positiveMillis(conf, DFS_MPCACHE_LOCALIZED_SCAN_KEY,
            DFS_MPCACHE_LOCALIZED_SCAN_DEFAULT_MS),
        secretFile(conf, DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY,
            DFS_MPCACHE_LOCALIZED_RELAY_SECRET_MIN_BYTES),
        positiveShare(conf, DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_KEY,
            DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_DEFAULT),
        positiveShare(conf, DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_KEY,
            DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_DEFAULT),
        nonNegativeBytes(conf, DFS_MPCACHE_POOL_UNIT_KEY, DFS_MPCACHE_POOL_UNIT_DEFAULT,
            "0: a block, or a 64th of a cache of fewer than 64 blocks"),
        positiveMillis(conf, DFS_MPCACHE_DIR_IO_TIMEOUT_KEY,
            DFS_MPCACHE_DIR_IO_TIMEOUT_DEFAULT_MS));
  }

  private static double positiveShare(Configuration conf, String key, double defaultValue)
      throws InvalidSettingException {
    double value = share(conf, key, defaultValue);
    if (value == 0) {
      throw new InvalidSettingException(key, "must be a share in (0, 1], got 0");
    }
    return value;
  }
}
