package org.mpcache.slave.inputcache;

import java.util.Collection;
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
   * A block that is not cached is being read. {@code room} gives the room the slave would have
   * for it after evicting given victims, read when the decision is made (other fills' victims
   * may have gone since this one started; it takes the slave's index lock, so it must not be
   * called under the arbiter's own); freeing the victims must leave at least {@code bytes} free.
   */
  Admission requestAdmission(BlockKey block, long bytes, Room room);

  /** The room a fill would have now, after its victims (copies, or fills under way) are gone. */
  @FunctionalInterface
  interface Room {
    long bytesFreeAfterEvicting(Collection<BlockKey> victims);
  }

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
