package org.mpcache.slave.masterlink;

import java.util.Arrays;

/** Block ids kept for the next heartbeat, at most {@code max}; beyond, further ones are dropped. */
final class BlockIdBatch {
  private final int max;
  private long[] ids = new long[64];
  private int size;
  private long dropped;

  BlockIdBatch(int max) {
    this.max = max;
  }

  void add(long id) {
    if (size == max) {
      dropped++;
      return;
    }
    if (size == ids.length) {
      ids = Arrays.copyOf(ids, Math.min(max, ids.length * 2));
    }
    ids[size++] = id;
  }

  /** Ids dropped for want of room since the batch was made. */
  long dropped() {
    return dropped;
  }

  long[] drain() {
    long[] drained = Arrays.copyOf(ids, size);
    size = 0;
    return drained;
  }
}
