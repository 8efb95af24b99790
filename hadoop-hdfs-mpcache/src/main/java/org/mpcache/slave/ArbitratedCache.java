package org.mpcache.slave;

import org.mpcache.protocol.SlaveUsage;

/** What the master link needs from the cache it arbitrates. */
interface ArbitratedCache {
  SlaveUsage usage();

  /** Deletes the copies of these blocks that are held (the master evicted their data sets). */
  void evict(String blockPoolId, long[] blockIds);
}
