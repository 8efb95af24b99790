package org.mpcache.slave;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import org.mpcache.policy.BlockLru;

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
  public synchronized Admission requestAdmission(BlockKey block, long bytes, long freeBytes) {
    if (bytes > capacityBytes.getAsLong()) {
      return Admission.REJECTED;
    }
    return Admission.admit(victimsAfter(List.of(), bytes, freeBytes));
  }

  /**
   * The {@code chosen} copies held here, then least recently used ones until deleting them all
   * leaves {@code bytes} free (everything held when even that does not).
   */
  synchronized List<BlockKey> victimsAfter(List<BlockKey> chosen, long bytes, long freeBytes) {
    List<BlockKey> victims = new ArrayList<>();
    Set<BlockKey> taken = new HashSet<>();
    long freed = 0;
    for (BlockKey key : chosen) {
      if (lru.contains(key) && taken.add(key)) {
        victims.add(key);
        freed += lru.bytes(key);
      }
    }
    if (freeBytes + freed < bytes) {
      victims.addAll(lru.victims(bytes - freeBytes - freed, taken::contains));
    }
    return victims;
  }

  @Override
  public List<BlockKey> shrinkVictims(long excessBytes) {
    return victimsAfter(List.of(), excessBytes, 0);
  }

  /** Every copy held, least recently used first. */
  synchronized List<BlockKey> cached() {
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
