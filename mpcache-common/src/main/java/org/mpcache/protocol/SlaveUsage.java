package org.mpcache.protocol;

/**
 * What a slave's SSD holds and how it has served reads since the DataNode started.
 *
 * @param inputBytes HDFS block copies
 * @param poolBytes room of the dynamic pool not assigned to input or localized data
 * @param localizedBytes MapReduce intermediate data
 * @param state "ok", or why the slave's cache is disabled or degraded
 * @param bytesFromSsd bytes served from SSD copies
 * @param bytesFromHdd bytes served from HDD replicas to readers the cache could have served (0
 *     from a slave of a release before these fields)
 */
public record SlaveUsage(long capacityBytes, long inputBytes, long poolBytes, long localizedBytes,
    long hits, long misses, int cachedBlocks, String state, long bytesFromSsd,
    long bytesFromHdd) {
  public double hitRatio() {
    return hits + misses == 0 ? 0 : (double) hits / (hits + misses);
  }
}
