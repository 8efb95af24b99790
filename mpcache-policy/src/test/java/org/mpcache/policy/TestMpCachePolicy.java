package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.policy.PolicyJobs.block;
import static org.mpcache.policy.PolicyJobs.dataSet;
import static org.mpcache.policy.PolicyJobs.job;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Small scenarios that only the specified policy (the mpCache paper's Algorithm 1) passes. */
class TestMpCachePolicy {
  private static final int NODE = 0;
  /** Data sets only read to space out accesses (admission measures distance in accesses). */
  private static final DataSet FILLER = new DataSet(99, 1);

  /**
   * A policy on a cluster that has been running: ten accesses already happened, so a data set
   * read once is worth little as a victim (its access distance is 10).
   */
  private static MpCachePolicy runningPolicy(double fullBonus, int nodes, int capacity) {
    MpCachePolicy policy = new MpCachePolicy(fullBonus);
    for (int node = 0; node < nodes; node++) {
      policy.setCapacity(node, capacity);
    }
    fillers(policy, 10);
    return policy;
  }

  private static void fillers(ReplacementPolicy policy, int count) {
    for (int i = 0; i < count; i++) {
      policy.dataSetAccessed(FILLER);
    }
  }

  private static boolean cached(ReplacementPolicy policy, int node, DataSet dataSet) {
    for (int i = 0; i < dataSet.blocks(); i++) {
      if (!policy.isCached(node, block(dataSet, i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A newcomer gets in: read once (only recorded), at once again (distance 0.01, worth 50 at two
   * blocks), then once more after fillers so that, as a victim later, it is worth little.
   */
  private static void newcomer(MpCachePolicy policy, DataSet dataSet) {
    job(policy, NODE, dataSet);
    job(policy, NODE, dataSet);
    fillers(policy, 10);
    job(policy, NODE, dataSet);
  }

  @Test
  void clockAgeingEvictsAnOldPopularDataSet() {
    MpCachePolicy policy = runningPolicy(1.0, 1, 4);
    DataSet popular = dataSet(0, 2);
    for (int i = 0; i < 5; i++) {
      job(policy, NODE, popular);
      fillers(policy, 10);
    }
    assertEquals(1 + 0 + 5, policy.priority(0), 1e-9); // Full + Clock + Fr

    newcomer(policy, dataSet(1, 2)); // fits beside it, three reads: Pr 1 + 0 + 3 = 4
    newcomer(policy, dataSet(2, 2)); // evicts data set 1: Clock 4, then Pr 1 + 4 + 2 = 7
    assertTrue(cached(policy, NODE, popular));
    assertEquals(4, policy.clock(), 1e-9);
    assertEquals(7, policy.priority(2), 1e-9);

    newcomer(policy, dataSet(3, 2)); // the lowest now is the popular one, aged out by Clock
    assertFalse(cached(policy, NODE, popular), "Clock must age the old popular data set out");
    assertTrue(cached(policy, NODE, dataSet(2, 2)));
    assertEquals(6, policy.clock(), 1e-9);
  }

  @Test
  void aCompleteDataSetOutlivesAnIncompleteOneOfEqualFrequency() {
    assertTrue(cached(completeVersusIncomplete(1.0), NODE, dataSet(1, 2)),
        "with the bonus the incomplete data set goes, the complete one stays");
    // Without the bonus their priorities tie and the lower id goes first: the bonus decided it.
    assertFalse(cached(completeVersusIncomplete(0.0), NODE, dataSet(1, 2)));
  }

  /**
   * Data set 1 (2 blocks, all cached) and data set 2 (4 blocks, 2 cached) both read at Fr = 2;
   * then a one-block newcomer worth more than either needs room.
   */
  private static MpCachePolicy completeVersusIncomplete(double bonus) {
    MpCachePolicy policy = runningPolicy(bonus, 1, 4);
    DataSet complete = dataSet(1, 2);
    DataSet incomplete = dataSet(2, 4);
    job(policy, NODE, complete);
    job(policy, NODE, complete); // worth 1/(2·0.01) = 50: the incomplete one never displaces it
    for (int i = 0; i < 4; i++) {
      job(policy, NODE, incomplete); // 2 blocks fit, the other 2 are never worth it
    }
    assertEquals(bonus + 0 + 2, policy.priority(1), 1e-9);
    assertEquals(0 + 0 + 2, policy.priority(2), 1e-9);
    DataSet newcomer = dataSet(3, 1);
    job(policy, NODE, newcomer); // recorded only
    CacheDecision admitted = job(policy, NODE, newcomer).get(0); // worth 100
    assertTrue(admitted.admitted());
    assertEquals(2, admitted.evict().length);
    return policy;
  }

  /** One job reads the two-block data set, its first block on node 0, its second on node 1. */
  private static DataSet spreadOverTwoNodes(ReplacementPolicy policy, DataSet dataSet) {
    policy.dataSetAccessed(dataSet);
    policy.access(0, block(dataSet, 0), dataSet);
    policy.access(1, block(dataSet, 1), dataSet);
    return dataSet;
  }

  @Test
  void evictionTakesTheDataSetFromEveryNodeAndTheNextRequestThereUsesToDel() {
    MpCachePolicy policy = runningPolicy(1.0, 2, 2);
    DataSet spread = spreadOverTwoNodes(policy, dataSet(1, 2));
    DataSet other = dataSet(2, 1);
    job(policy, 1, other);

    DataSet incoming = dataSet(3, 2);
    job(policy, 0, incoming); // block 300 fits, 301 is only recorded
    List<CacheDecision> second = job(policy, 0, incoming);
    assertArrayEquals(new long[] {100}, second.get(1).evict(), "node 0 evicts its block of 1");
    assertFalse(policy.isCached(1, 101), "the data set is gone from node 1 too");
    assertEquals(2, policy.usedBlocks(1), "node 1 still holds the condemned block");

    CacheDecision onNode1 = policy.access(1, block(dataSet(4, 1), 0), dataSet(4, 1));
    assertTrue(onNode1.admitted());
    assertArrayEquals(new long[] {101}, onNode1.evict(), "To_Del first");
    assertTrue(policy.isCached(1, block(other, 0)), "no other data set was evicted");
    assertArrayEquals(new long[0], policy.drainPendingEvictions(1));
  }

  @Test
  void aFirstSeenDataSetIsOnlyRecordedWhenTheCacheIsFull() {
    MpCachePolicy policy = runningPolicy(1.0, 1, 3);
    DataSet resident = dataSet(1, 2);
    job(policy, NODE, resident);
    DataSet fresh = dataSet(2, 2);
    List<CacheDecision> first = job(policy, NODE, fresh);
    assertTrue(first.get(0).admitted(), "free room: cached without admission control");
    assertFalse(first.get(1).admitted(), "full and first seen: only recorded");
    assertTrue(cached(policy, NODE, resident));
    List<CacheDecision> again = job(policy, NODE, fresh);
    assertTrue(again.get(0).hit());
    assertTrue(again.get(1).admitted(), "recorded now, and worth more than the resident");
  }

  @Test
  void drainingToDelHandsTheCondemnedBlocksOverOnce() {
    MpCachePolicy policy = runningPolicy(1.0, 2, 1);
    spreadOverTwoNodes(policy, dataSet(1, 2));
    job(policy, 0, dataSet(2, 1));
    job(policy, 0, dataSet(2, 1));
    assertArrayEquals(new long[] {101}, policy.drainPendingEvictions(1));
    assertArrayEquals(new long[0], policy.drainPendingEvictions(1));
    assertEquals(0, policy.usedBlocks(1));
  }

  @Test
  void freeingRoomEvictsWholeDataSetsOfLowestPriorityEverywhere() {
    MpCachePolicy policy = runningPolicy(1.0, 2, 4);
    DataSet cold = spreadOverTwoNodes(policy, dataSet(1, 2));
    DataSet hot = dataSet(2, 2);
    job(policy, 0, hot);
    job(policy, 0, hot);

    // One block of node 0 must go: all of the cold data set goes, on both nodes.
    assertArrayEquals(new long[] {block(cold, 0)}, policy.evictFrom(0, 1));
    assertTrue(cached(policy, 0, hot));
    assertEquals(1 + 0 + 1, policy.clock(), 1e-9, "Clock took the victim's priority");
    assertArrayEquals(new long[] {block(cold, 1)}, policy.drainPendingEvictions(1),
        "the other node is told on its next heartbeat");
  }

  /**
   * Node 1 holds two one-block data sets and a copy of the cold data set that node 0's eviction
   * condemned there (To_Del, not yet handed over): taking its room down by all three frees the
   * condemned copy and both data sets, not the condemned copy and one.
   */
  @Test
  void freeingMoreRoomThanToDelHoldsEvictsTheRestFromTheCopiesThere() {
    MpCachePolicy policy = runningPolicy(1.0, 2, 4);
    DataSet cold = spreadOverTwoNodes(policy, dataSet(1, 2));
    DataSet hot = dataSet(2, 2);
    job(policy, 0, hot);
    job(policy, 0, hot);
    for (DataSet single : List.of(dataSet(3, 1), dataSet(4, 1))) {
      job(policy, 1, single);
      job(policy, 1, single);
    }
    assertArrayEquals(new long[] {block(cold, 0)}, policy.evictFrom(0, 1));
    assertEquals(3, policy.usedBlocks(1), "two copies and the condemned one");

    assertEquals(3, policy.evictFrom(1, 3).length);
    assertEquals(0, policy.usedBlocks(1));
  }

  /**
   * Node 1 holds a cold data set only; node 0 is full of a warmer one. A newcomer needing room
   * on node 0 evicts the warmer one (the lowest holding copies there); as published, the cold
   * data set goes first, everywhere, freeing nothing on node 0, and then the warmer one too.
   */
  @Test
  void victimsAreTakenFromDataSetsHoldingCopiesWhereRoomIsNeeded() {
    for (MpCachePolicy.VictimScope scope : MpCachePolicy.VictimScope.values()) {
      MpCachePolicy policy = new MpCachePolicy(1.0,
          new AdmissionControl(AdmissionControl.BACK_TO_BACK_DISTANCE, true), scope);
      policy.setCapacity(0, 2);
      policy.setCapacity(1, 2);
      fillers(policy, 10);
      DataSet cold = dataSet(1, 1);
      job(policy, 1, cold);
      DataSet warm = dataSet(2, 2);
      job(policy, 0, warm);
      job(policy, 0, warm);
      fillers(policy, 10);
      DataSet incoming = dataSet(3, 1);
      job(policy, 0, incoming); // recorded only
      CacheDecision admitted = job(policy, 0, incoming).get(0);

      assertTrue(admitted.admitted(), scope.toString());
      assertArrayEquals(new long[] {block(warm, 0), block(warm, 1)},
          java.util.Arrays.stream(admitted.evict()).sorted().toArray(), scope.toString());
      assertEquals(scope == MpCachePolicy.VictimScope.NODE, policy.isCached(1, block(cold, 0)),
          scope + ": the cold data set on node 1 stays only when victims are node-scoped");
    }
    assertEquals("mpcache", new MpCachePolicy().name());
    assertEquals("mpcache-as-published", new MpCachePolicy(1, new AdmissionControl(
        AdmissionControl.BACK_TO_BACK_DISTANCE, true), MpCachePolicy.VictimScope.CLUSTER).name());
  }
}
