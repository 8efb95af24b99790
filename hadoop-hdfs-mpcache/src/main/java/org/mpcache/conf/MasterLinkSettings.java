package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.*;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a slave reaches the cache master; no addresses: the slave decides alone. */
public record MasterLinkSettings(List<InetSocketAddress> masters, long heartbeatMillis,
    int timeoutMillis, int reportBatch) {
  private static final Logger LOG = LoggerFactory.getLogger(MasterLinkSettings.class);

  public MasterLinkSettings {
    masters = List.copyOf(masters);
  }

  public boolean hasMaster() {
    return !masters.isEmpty();
  }

  public static MasterLinkSettings from(Configuration conf) throws InvalidSettingException {
    long timeout = positiveMillis(conf, DFS_MPCACHE_MASTER_TIMEOUT_KEY,
        DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS);
    return new MasterLinkSettings(MasterAddresses.all(conf), heartbeatMillis(conf),
        (int) Math.min(Integer.MAX_VALUE, timeout),
        Math.max(1, nonNegativeInt(conf, DFS_MPCACHE_REPORT_BATCH_KEY,
            DFS_MPCACHE_REPORT_BATCH_DEFAULT)));
  }

  /**
   * The heartbeat interval. A site file written before the key was renamed keeps its meaning:
   * the old key, read in milliseconds, counts while the new one has only its default.
   */
  @SuppressWarnings("deprecation")
  private static long heartbeatMillis(Configuration conf) throws InvalidSettingException {
    if (deprecatedHeartbeatCounts(conf)) {
      LOG.warn("mpCache: {} is deprecated; set {} instead (a bare number there is seconds)",
          DFS_MPCACHE_HEARTBEAT_MILLIS_KEY, DFS_MPCACHE_HEARTBEAT_KEY);
      return positiveMillis(conf, DFS_MPCACHE_HEARTBEAT_MILLIS_KEY,
          DFS_MPCACHE_HEARTBEAT_DEFAULT_MS);
    }
    return positiveMillis(conf, DFS_MPCACHE_HEARTBEAT_KEY, DFS_MPCACHE_HEARTBEAT_DEFAULT_MS,
        TimeUnit.SECONDS);
  }

  /**
   * True when the slaves read the deprecated {@code dfs.mpcache.heartbeat.interval} (in
   * milliseconds) rather than {@code dfs.mpcache.slave.heartbeat.interval}.
   */
  @SuppressWarnings("deprecation")
  public static boolean deprecatedHeartbeatCounts(Configuration conf) {
    return conf.get(DFS_MPCACHE_HEARTBEAT_MILLIS_KEY) != null
        && conf.get(DFS_MPCACHE_HEARTBEAT_KEY) == null;
  }
}
