package org.mpcache.slave.inputcache;

import org.apache.hadoop.fs.StorageType;

/**
 * What the DataNode's own dataset says about a finalized replica: the truth a copy must match
 * (generation stamp, length), and the storage it is on.
 */
public record LiveReplica(long generationStamp, long length, StorageType storageType) {
  /**
   * True when an SSD copy can make the replica faster: it is on spinning storage. Replicas
   * already on SSD, in memory (RAM_DISK, NVDIMM) or PROVIDED (remote) are never copied.
   */
  public boolean onCacheableStorage() {
    return storageType == StorageType.DISK || storageType == StorageType.ARCHIVE;
  }

  /**
   * True when the cache serves and copies this replica of {@code key}: it has bytes, is on
   * spinning storage, and is not an internal block of an erasure-coded block group (read a cell
   * at a time from many nodes, and counted as block groups by the master's data sets). Other
   * replicas are served as stock serves them.
   */
  public boolean cacheable(BlockKey key) {
    return length > 0 && onCacheableStorage() && !key.striped();
  }

  /** True when a copy made from {@code other} would be a copy of this replica. */
  public boolean sameBytesAs(LiveReplica other) {
    return other != null && other.generationStamp == generationStamp && other.length == length;
  }
}
