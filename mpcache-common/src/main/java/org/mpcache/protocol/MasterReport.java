package org.mpcache.protocol;

import java.util.List;

/** The cache cluster-wide as the master sees it, for {@code MpCacheAdmin}. */
public record MasterReport(String state, String policy, List<NodeReport> nodes,
    List<DataSetReport> dataSets, List<DataSetHistory> history) {

  /** One slave. */
  public record NodeReport(String datanodeUuid, String hostname, SlaveUsage usage,
      long lastHeartbeatMillisAgo, int pendingEvictions) {
  }

  /**
   * A data set with blocks cached somewhere; priority is NaN for block-level policies; what an
   * admin set on it (a pin, a TTL in milliseconds, 0 for none).
   */
  public record DataSetReport(String path, double priority, int cachedBlocks, int totalBlocks,
      List<String> hostnames, boolean pinned, long ttlMillis) {
  }

  /** The Dynamic Space Manager's memory of a data set read by jobs, with its size then. */
  public record DataSetHistory(String path, int blocks, long accesses,
      long lastAccessMillisAgo) {
  }
}
