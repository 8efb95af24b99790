package org.mpcache.locality;

/**
 * Job counters of cache-aware map placement, beside Hadoop's DATA_LOCAL_MAPS and
 * RACK_LOCAL_MAPS (display names in CacheLocalityCounter.properties). Counted by the MapReduce
 * application master that {@code mapreduce.framework.name=yarn-mpcache} starts.
 */
public enum CacheLocalityCounter {
  /** Map tasks launched whose input block was on some node's SSD when they asked for a node. */
  SSD_INPUT_MAPS,
  /** Of those, the ones that ran on a node holding the block on SSD. */
  CACHE_LOCAL_MAPS,
  /** Map tasks that stopped waiting for a node holding their block on SSD. */
  CACHE_WAIT_EXPIRED_MAPS
}
