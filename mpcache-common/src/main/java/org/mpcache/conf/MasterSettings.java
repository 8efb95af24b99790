package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.*;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.mpcache.policy.ReplacementPolicies;

/**
 * The cache master's settings, parsed and checked once when the NameNode starts it.
 *
 * @param pinShare share of each node's SSD cache that pinned data sets may take
 * @param loadBlocksInFlight blocks of an admin's load a slave is copying at most at once
 * @param percentileIntervals seconds over which the master's metrics give latency percentiles
 * @param maxTrackedDataSets data sets the master tracks at most (beyond, it forgets those it may)
 */
public record MasterSettings(InetSocketAddress bindAddress, int handlers, String policy,
    double fullBonus, double backToBackDistance, String dataSet, CachedPaths cachedPaths,
    long recoveryMillis, long expiryMillis, int historySize, long dataSetIdleMillis,
    double pinShare, int loadBlocksInFlight, int[] percentileIntervals, int maxTrackedDataSets) {
  public static final List<String> DATA_SETS = List.of("directory", "file");

  /** The policy the key names, as the policies' own registry reads it (a grammar, not a list). */
  private static String policy(Configuration conf) throws InvalidSettingException {
    String name = conf.getTrimmed(DFS_MPCACHE_MASTER_POLICY_KEY, DFS_MPCACHE_MASTER_POLICY_DEFAULT);
    try {
      ReplacementPolicies.check(name);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(DFS_MPCACHE_MASTER_POLICY_KEY, e.getMessage());
    }
    return name;
  }

  /**
   * The settings of the master of the NameNode whose RPC server is at {@code nameNodeRpc}; with
   * HA its address is that NameNode's ({@link MasterAddresses#own}).
   */
  public static MasterSettings from(Configuration conf, InetSocketAddress nameNodeRpc)
      throws InvalidSettingException {
    InetSocketAddress own = MasterAddresses.own(conf, nameNodeRpc);
    String bindHost = conf.getTrimmed(DFS_MPCACHE_MASTER_BIND_HOST_KEY, "");
    InetSocketAddress bind = bindHost.isEmpty() ? own
        : new InetSocketAddress(bindHost, own.getPort());
    return new MasterSettings(bind,
        Math.max(1, nonNegativeInt(conf, DFS_MPCACHE_MASTER_HANDLERS_KEY,
            DFS_MPCACHE_MASTER_HANDLERS_DEFAULT)),
        policy(conf),
        nonNegativeDouble(conf, DFS_MPCACHE_MASTER_FULL_BONUS_KEY,
            DFS_MPCACHE_MASTER_FULL_BONUS_DEFAULT),
        positiveDouble(conf, DFS_MPCACHE_MASTER_BACK_TO_BACK_KEY,
            DFS_MPCACHE_MASTER_BACK_TO_BACK_DEFAULT),
        choice(conf, DFS_MPCACHE_MASTER_DATASET_KEY, DFS_MPCACHE_MASTER_DATASET_DEFAULT,
            DATA_SETS),
        new CachedPaths(hdfsPaths(conf, DFS_MPCACHE_MASTER_INCLUDE_KEY),
            hdfsPaths(conf, DFS_MPCACHE_MASTER_EXCLUDE_KEY)),
        positiveMillis(conf, DFS_MPCACHE_MASTER_RECOVERY_KEY,
            DFS_MPCACHE_MASTER_RECOVERY_DEFAULT_MS),
        positiveMillis(conf, DFS_MPCACHE_MASTER_EXPIRY_KEY, DFS_MPCACHE_MASTER_EXPIRY_DEFAULT_MS),
        nonNegativeInt(conf, DFS_MPCACHE_MASTER_HISTORY_KEY, DFS_MPCACHE_MASTER_HISTORY_DEFAULT),
        positiveMillis(conf, DFS_MPCACHE_MASTER_DATASET_IDLE_KEY,
            DFS_MPCACHE_MASTER_DATASET_IDLE_DEFAULT_MS),
        share(conf, DFS_MPCACHE_MASTER_PIN_SHARE_KEY, DFS_MPCACHE_MASTER_PIN_SHARE_DEFAULT),
        Math.max(1, nonNegativeInt(conf, DFS_MPCACHE_MASTER_LOAD_IN_FLIGHT_KEY,
            DFS_MPCACHE_MASTER_LOAD_IN_FLIGHT_DEFAULT)),
        positiveInts(conf, DFS_MPCACHE_MASTER_PERCENTILES_KEY,
            DFS_MPCACHE_MASTER_PERCENTILES_DEFAULT),
        maxTrackedDataSets(conf));
  }

  private static int maxTrackedDataSets(Configuration conf) throws InvalidSettingException {
    int cap = nonNegativeInt(conf, DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY,
        DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_DEFAULT);
    return cap > 0 ? cap : maxTrackedDataSetsFor(Runtime.getRuntime().maxMemory());
  }
}
