package org.mpcache.bench.harness;

import java.util.Arrays;
import java.util.Locale;

/** A configuration the harness compares; all run the same workload on the same devices. */
public enum ClusterSetup {
  STOCK("stock Hadoop", null),
  MEMORY("Hadoop in-memory cache (hdfs cacheadmin, PACMan-like)", null),
  ALL_SSD("ALL_SSD storage policy (upper bound)", null),
  MPCACHE("mpCache", "mpcache"),
  MPCACHE_LRU("mpCache with LRU", "lru"),
  MPCACHE_LFU("mpCache with LFU", "lfu"),
  MPCACHE_MRU("mpCache with MRU", "mru");

  private final String description;
  private final String policy;

  ClusterSetup(String description, String policy) {
    this.description = description;
    this.policy = policy;
  }

  public String description() {
    return description;
  }

  /** The master's replacement policy, or null when mpCache is off. */
  public String policy() {
    return policy;
  }

  public boolean mpCache() {
    return policy != null;
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
