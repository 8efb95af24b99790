package org.mpcache.slave.masterlink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.mpcache.slave.inputcache.BlockKey;

/**
 * What a slave tells its master of its copies at the next heartbeat: the blocks whose copy
 * appeared or left since the last one, each by its latest state. Not thread-safe: the arbiter
 * calls it under its lock.
 */
final class CopyChanges {
  /** The blocks of one block pool whose copies appeared and left. */
  record Report(long[] cached, long[] removed) {
  }

  private final Map<BlockKey, Boolean> latest = new LinkedHashMap<>();

  void cached(BlockKey key) {
    latest.put(key, true);
  }

  void removed(BlockKey key) {
    latest.put(key, false);
  }

  /**
   * The master admitted a new copy of the block: it counts that copy from now on, and the copy's
   * end is reported in its turn. A copy that left before is no news to it; told after the
   * admission, it would drop the new copy from the master's view until that one is reported.
   */
  void admitted(BlockKey key) {
    latest.remove(key, Boolean.FALSE);
  }

  /** Forgets every change (the slave registers with the copies it holds). */
  void clear() {
    latest.clear();
  }

  /** The changes of block pool {@code pool}; the others' are forgotten with them. */
  Report drain(String pool) {
    List<Long> cached = new ArrayList<>();
    List<Long> removed = new ArrayList<>();
    latest.forEach((key, present) -> {
      if (key.blockPoolId().equals(pool)) {
        (present ? cached : removed).add(key.blockId());
      }
    });
    latest.clear();
    return new Report(cached.stream().mapToLong(Long::longValue).toArray(),
        removed.stream().mapToLong(Long::longValue).toArray());
  }
}
