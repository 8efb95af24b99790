package org.mpcache.slave.inputcache;

import java.util.List;
import java.util.function.LongFunction;

import org.mpcache.protocol.SlaveUsage;

/** What the master link needs from the cache it arbitrates. */
public interface ArbitratedCache {
  SlaveUsage usage();

  /** Deletes the copies of these blocks that are held (the master evicted their data sets). */
  void evict(String blockPoolId, long[] blockIds);

  /**
   * Copies these blocks from their replicas to the SSD in the background (an admin loads their
   * data set); each copy asks admission as a read's would.
   */
  void load(String blockPoolId, long[] blockIds);

  /**
   * While input data is over the tuner's limit, deletes the copies {@code victims} names for the
   * excess bytes.
   */
  void trimToLimit(LongFunction<List<BlockKey>> victims);
}
