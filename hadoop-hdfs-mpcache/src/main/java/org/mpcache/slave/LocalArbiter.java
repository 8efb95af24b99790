package org.mpcache.slave;

import java.util.List;

import org.mpcache.policy.BlockLru;

/** The slave's own decisions when no master is configured: admit everything that fits, evict LRU. */
public final class LocalArbiter implements CacheArbiter {
  private final BlockLru<BlockKey> lru = new BlockLru<>();
  private final long capacityBytes;

  public LocalArbiter(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  @Override
  public Admission requestAdmission(BlockKey block, long bytes, long freeBytes) {
    if (bytes > capacityBytes) {
      return Admission.REJECTED;
    }
    return Admission.admit(freeBytes >= bytes ? List.of() : lru.victims(bytes - freeBytes));
  }

  @Override
  public void onHit(BlockKey block) {
    lru.touch(block);
  }

  @Override
  public void onCached(BlockKey block, long bytes) {
    lru.add(block, bytes);
  }

  @Override
  public void onRemoved(BlockKey block) {
    lru.remove(block);
  }
}
