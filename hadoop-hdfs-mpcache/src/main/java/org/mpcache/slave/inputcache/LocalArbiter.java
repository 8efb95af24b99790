package org.mpcache.slave.inputcache;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import org.mpcache.policy.slave.BlockLru;

/**
 * The slave's own decisions: admit everything that fits, evict least recently used copies. It
 * decides alone when no master is configured, and stands in whenever the master cannot decide.
 */
public final class LocalArbiter implements CacheArbiter {
  private final BlockLru<BlockKey> lru = new BlockLru<>();
  private final LongSupplier capacityBytes;

  /** {@code capacityBytes}: the cache's capacity now (its dirs come and go). */
  public LocalArbiter(LongSupplier capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  public LocalArbiter(long capacityBytes) {
    this(() -> capacityBytes);
  }

  @Override
  public Admission requestAdmission(BlockKey block, long bytes, Room room) {
    if (bytes > capacityBytes.getAsLong()) {
      return Admission.REJECTED;
    }
    // The room is read before this arbiter's lock: the slave's index calls in under its own.
    long free = room.bytesFreeAfterEvicting(List.of());
    return Admission.admit(victimsAfter(List.of(), bytes, free));
  }

  /**
   * The {@code chosen} victims, then least recently used copies until {@code bytes} are free
   * ({@code freeBytes}: the room once the chosen ones are gone; everything held when even
   * evicting all does not make room).
   */
  public synchronized List<BlockKey> victimsAfter(List<BlockKey> chosen, long bytes,
      long freeBytes) {
    List<BlockKey> victims = new ArrayList<>(new LinkedHashSet<>(chosen));
    if (freeBytes < bytes) {
      Set<BlockKey> taken = new HashSet<>(chosen);
      victims.addAll(lru.victims(bytes - freeBytes, taken::contains));
    }
    return victims;
  }

  @Override
  public List<BlockKey> shrinkVictims(long excessBytes) {
    return victimsAfter(List.of(), excessBytes, 0);
  }

  /** Every copy held, least recently used first. */
  public synchronized List<BlockKey> cached() {
    return lru.items();
  }

  @Override
  public String describe() {
    return "local LRU (no cache master configured)";
  }

  @Override
  public synchronized void onHit(BlockKey block) {
    lru.touch(block);
  }

  @Override
  public synchronized void onCached(BlockKey block, long bytes) {
    lru.add(block, bytes);
  }

  @Override
  public synchronized void onRemoved(BlockKey block) {
    lru.remove(block);
  }
}
