package org.mpcache.bench.harness;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_POOL_GUARD_DEFAULT;

import java.util.Arrays;
import java.util.Locale;

import org.mpcache.policy.slave.DynamicPool;
import org.mpcache.policy.ReplacementPolicies;

/** A configuration the harness compares; all run the same workload on the same devices. */
public enum ClusterSetup {
  STOCK("stock Hadoop", null, false),
  MEMORY("Hadoop in-memory cache (hdfs cacheadmin, PACMan-like)", null, false),
  ALL_SSD("ALL_SSD storage policy on the inputs, local dirs on SSD (upper bound)", null, false),
  MPCACHE("mpCache: input and localized data on SSD", ReplacementPolicies.DEFAULT, true),
  MPCACHE_INPUT_ONLY("mpCache caching input data only", ReplacementPolicies.DEFAULT, false),
  MPCACHE_COLD("mpCache from an empty cache (no warm-up): what first reads cost",
      ReplacementPolicies.DEFAULT, true),
  MPCACHE_PAPER("mpCache with the paper's policy (Algorithm 1, node-scoped victims)", "mpcache",
      true),
  MPCACHE_LRU("mpCache with LRU", "lru", true),
  MPCACHE_LFU("mpCache with LFU", "lfu", true),
  MPCACHE_MRU("mpCache with MRU", "mru", true);

  private final String description;
  private final String policy;
  private final boolean localized;

  ClusterSetup(String description, String policy, boolean localized) {
    this.description = description;
    this.policy = policy;
    this.localized = localized;
  }

  public String description() {
    return description;
  }

  /** The master's replacement policy, or null when mpCache is off. */
  public String policy() {
    return policy;
  }

  /** Whether the history's reads warm the caches before the timed jobs (all but the cold run). */
  public boolean warmedUp() {
    return this != MPCACHE_COLD;
  }

  public boolean mpCache() {
    return policy != null;
  }

  /**
   * Whether map spills, map outputs and shuffled data go to the SSD when the node's slave grants
   * the room (hadoop-mapreduce-ssdshuffle); otherwise they stay on the HDD local dirs.
   */
  public boolean localized() {
    return localized;
  }

  /**
   * The most of a node's SSD cache of {@code cacheBytes} that input data may hold: with localized
   * data on the SSD, all but the Localized Cache's own units, split as the slave splits it with
   * a pool of {@code poolShare} and the other pool keys' defaults, which the harness keeps
   * (docs/architecture.md, "Localized data and the Dynamic Pool"); else the whole cache.
   */
  public long inputCeilingBytes(long cacheBytes, long blockBytes, double poolShare) {
    if (!localized) {
      return cacheBytes;
    }
    return DynamicPool.split(cacheBytes, DynamicPool.unitFor(cacheBytes, blockBytes),
        poolShare, DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT,
        DFS_MPCACHE_POOL_GUARD_DEFAULT).inputCeilingBytes();
  }

  /** The name used on the command line and in reports: "stock", "mpcache-lru", ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static ClusterSetup of(String label) {
    for (ClusterSetup setup : values()) {
      if (setup.label().equalsIgnoreCase(label.trim())) {
        return setup;
      }
    }
    throw new IllegalArgumentException("no configuration '" + label + "'; choose from "
        + Arrays.stream(values()).map(ClusterSetup::label).toList());
  }
}
