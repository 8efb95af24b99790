package org.mpcache.simulator;

import java.util.SplittableRandom;

/** Where a trace's blocks live: three replicas on distinct nodes, drawn from the block id. */
final class BlockPlacement {
  private BlockPlacement() {
  }

  /** The nodes holding the block's replicas, distinct, fixed per block and seed. */
  static void replicas(int nodes, long seed, long block, int[] into) {
    SplittableRandom random = new SplittableRandom(block * 0x9E3779B97F4A7C15L ^ seed);
    for (int i = 0; i < into.length; i++) {
      int candidate;
      boolean taken;
      do {
        candidate = random.nextInt(nodes);
        taken = false;
        for (int j = 0; j < i; j++) {
          taken |= into[j] == candidate;
        }
      } while (taken && nodes > i);
      into[i] = candidate;
    }
  }
}
