package org.mpcache.slave;

import java.util.List;

/**
 * The seam between the slave and whoever decides what the SSD holds: the slave asks
 * "admit? evict what?" and reports what happened. Locally, {@link LocalArbiter}; with a
 * master, the Replace Arbitrator on the NameNode answers over RPC.
 *
 * <p>{@link #requestAdmission} is called without the slave's lock (it may call the master); the
 * other calls arrive under it and must be quick. Implementations are thread-safe.
 */
public interface CacheArbiter {
  /**
   * A block that is not cached is being read. {@code freeBytes} is the room the slave has now;
   * victims must be cached blocks, and freeing them must leave at least {@code bytes} free.
   */
  Admission requestAdmission(BlockKey block, long bytes, long freeBytes);

  /** A cached block was served. */
  void onHit(BlockKey block);

  /** A block's copy is now on the SSD (filled, or found valid at start-up). */
  void onCached(BlockKey block, long bytes);

  /**
   * A block's copy left the SSD (evicted, invalidated, corrupt, its directory failed) or an
   * admitted block was not cached after all; unknown blocks are ignored.
   */
  void onRemoved(BlockKey block);

  /**
   * Input data must give up {@code excessBytes} (the Dynamic Space Tuner lent its room to
   * localized data): the copies to delete now, or none when the master will say on its next
   * heartbeat (it sees the smaller capacity there).
   */
  List<BlockKey> shrinkVictims(long excessBytes);

  /** Who decides now, for metrics and logs. */
  String describe();
}
