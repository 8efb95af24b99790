package org.mpcache.slave.inputcache;

import java.util.Set;

/**
 * How the cache tells local readers that the files of a block they hold must not be used for new
 * reads: the DataNode's {@code ShortCircuitRegistry} marks their shared-memory slots invalid.
 * Stock Hadoop does so only when a replica is deleted, because an HDD replica's file changes in
 * place; an SSD copy is a frozen file, so every copy that leaves the cache is revoked.
 */
public interface ShortCircuitSlots {
  /** Marks the block's slots invalid: their holders ask the DataNode again at their next read. */
  void revoke(BlockKey key);

  /**
   * The slots local readers hold for the block now, each as itself (compared by identity): a
   * request that registered a slot is told from one that did not by the slot it added.
   */
  Set<Object> registeredSlots(BlockKey key);
}
