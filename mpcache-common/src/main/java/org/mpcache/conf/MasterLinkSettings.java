package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.*;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;

/** How a slave reaches the cache master; no addresses: the slave decides alone. */
public record MasterLinkSettings(List<InetSocketAddress> masters, long heartbeatMillis,
    int timeoutMillis, int reportBatch) {
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

  /** The heartbeat interval: a bare number is seconds, as Hadoop's own. */
  private static long heartbeatMillis(Configuration conf) throws InvalidSettingException {
    return positiveMillis(conf, DFS_MPCACHE_HEARTBEAT_KEY, DFS_MPCACHE_HEARTBEAT_DEFAULT_MS,
        TimeUnit.SECONDS);
  }
}
