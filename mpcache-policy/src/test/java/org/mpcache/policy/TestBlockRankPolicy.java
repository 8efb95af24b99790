package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestBlockRankPolicy {
  private static final DataSet ANY = new DataSet(1, 10);

  /** Caches blocks 1, 2, 3 on a node of capacity 3, reads 1 again twice and 2 once, then 4. */
  private static long[] evictedFor(BlockRankPolicy.Kind kind) {
    BlockRankPolicy policy = new BlockRankPolicy(kind);
    policy.setCapacity(0, 3);
    for (long block : new long[] {1, 2, 3, 1, 1, 2}) {
      policy.access(0, block, ANY);
    }
    assertTrue(policy.isCached(0, 3));
    return policy.access(0, 4, ANY).evict();
  }

  @Test
  void eachKindEvictsItsOwnVictim() {
    assertArrayEquals(new long[] {3}, evictedFor(BlockRankPolicy.Kind.LRU), "least recent");
    assertArrayEquals(new long[] {2}, evictedFor(BlockRankPolicy.Kind.MRU), "most recent");
    assertArrayEquals(new long[] {3}, evictedFor(BlockRankPolicy.Kind.LFU), "least used");
  }

  @Test
  void lfuBreaksTiesByRecency() {
    BlockRankPolicy policy = new BlockRankPolicy(BlockRankPolicy.Kind.LFU);
    policy.setCapacity(0, 2);
    policy.access(0, 1, ANY);
    policy.access(0, 2, ANY);
    assertArrayEquals(new long[] {1}, policy.access(0, 3, ANY).evict());
  }

  @Test
  void freeingRoomEvictsTheNodesLowestRankedBlocks() {
    BlockRankPolicy policy = new BlockRankPolicy(BlockRankPolicy.Kind.LRU);
    policy.setCapacity(0, 3);
    for (long block : new long[] {1, 2, 3, 1}) {
      policy.access(0, block, ANY);
    }
    assertArrayEquals(new long[] {2, 3}, policy.evictFrom(0, 2));
    assertTrue(policy.isCached(0, 1));
    assertArrayEquals(new long[] {1}, policy.evictFrom(0, 5), "no more than it holds");
  }

  /**
   * With the paper's filter, LRU on a full node caches a data set's block only when the data set
   * was seen before and is worth more than the data sets of the blocks it would evict.
   */
  @Test
  void anAdmissionFilterDecidesTheMissesThatNeedRoom() {
    BlockRankPolicy policy = new BlockRankPolicy(BlockRankPolicy.Kind.LRU,
        new AdmissionControl(AdmissionControl.BACK_TO_BACK_DISTANCE, false));
    assertEquals("lru+admission", policy.name());
    policy.setCapacity(0, 1);
    for (int i = 0; i < 10; i++) {
      policy.dataSetAccessed(new DataSet(9, 1)); // other jobs: the resident's distance is 10
    }
    DataSet resident = new DataSet(1, 1);
    policy.dataSetAccessed(resident);
    assertTrue(policy.access(0, 100, resident).admitted(), "room: no filter asked");
    DataSet newcomer = new DataSet(2, 1);
    policy.dataSetAccessed(newcomer);
    assertFalse(policy.access(0, 200, newcomer).admitted(), "first seen: only recorded");
    policy.dataSetAccessed(newcomer); // back to back: worth 100 against the resident's 0.1
    CacheDecision admitted = policy.access(0, 200, newcomer);
    assertTrue(admitted.admitted());
    assertArrayEquals(new long[] {100}, admitted.evict());
  }
}
