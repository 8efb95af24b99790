package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.policy.PolicyJobs.block;
import static org.mpcache.policy.PolicyJobs.dataSet;
import static org.mpcache.policy.PolicyJobs.job;
import static org.mpcache.policy.PolicyJobs.jobs;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pins and frees over every policy a key may select. */
class TestControlledPolicy {
  private static ControlledPolicy policy(String name, int nodes, int capacity) {
    ControlledPolicy policy = new ControlledPolicy(ReplacementPolicies.create(name,
        MpCachePolicy.DEFAULT_FULL_BONUS, AdmissionControl.BACK_TO_BACK_DISTANCE), 0.5);
    for (int node = 0; node < nodes; node++) {
      policy.setCapacity(node, capacity);
    }
    return policy;
  }

  private static boolean allCached(ControlledPolicy policy, int node, DataSet dataSet) {
    for (int i = 0; i < dataSet.blocks(); i++) {
      if (!policy.isCached(node, block(dataSet, i))) {
        return false;
      }
    }
    return true;
  }

  /** The master logs a node's room when it changes, against the capacity declared last. */
  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "lru"})
  void theDeclaredCapacityIsTheLastOneSetAndNoneForAnUnknownNode(String name) {
    ControlledPolicy policy = policy(name, 2, 4);
    policy.setCapacity(1, 3);
    assertEquals(4, policy.declaredCapacity(0));
    assertEquals(3, policy.declaredCapacity(1));
    assertEquals(-1, policy.declaredCapacity(2));
  }

  /** Pressure from data sets read far more often evicts everything but the pinned one. */
  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache", "lru", "lfu", "mru"})
  void aPinnedDataSetOutlivesPressureThatEvictsEverythingElse(String name) {
    ControlledPolicy policy = policy(name, 1, 4);
    DataSet pinned = dataSet(1, 2);
    policy.pin(pinned.id());
    assertTrue(job(policy, 0, pinned).stream().allMatch(CacheDecision::admitted));
    for (int round = 0; round < 5; round++) {
      for (int id = 2; id < 6; id++) {
        jobs(policy, 0, dataSet(id, 2), 3);
      }
    }
    assertTrue(allCached(policy, 0, pinned));
    assertTrue(policy.usedBlocks(0) <= 4, "the policy got the capacity less the pinned copies");
    assertTrue(job(policy, 0, pinned).stream().allMatch(CacheDecision::hit));

    policy.unpin(pinned);
    assertEquals(0, policy.pinnedCopies());
    assertTrue(allCached(policy, 0, pinned), "unpinned, its copies are the policy's again");
  }

  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "lru"})
  void pinningTakesTheCopiesTheDataSetHasOutOfThePolicy(String name) {
    ControlledPolicy policy = policy(name, 1, 4);
    DataSet a = dataSet(1, 2);
    jobs(policy, 0, a, 2);
    policy.pin(a.id());
    assertEquals(2, policy.pinnedCopies());
    assertTrue(allCached(policy, 0, a));
    for (int id = 2; id < 6; id++) {
      jobs(policy, 0, dataSet(id, 2), 3);
    }
    assertTrue(allCached(policy, 0, a));
  }

  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache", "lru"})
  void aPinnedDataSetIsAdmittedAtItsFirstReadWithinThePinShare(String name) {
    ControlledPolicy policy = policy(name, 1, 4);
    DataSet other = dataSet(2, 4);
    jobs(policy, 0, other, 3); // the node is full
    DataSet pinned = dataSet(1, 3);
    policy.pin(pinned.id());
    List<CacheDecision> first = job(policy, 0, pinned);
    assertTrue(first.get(0).admitted() && first.get(1).admitted(), first.toString());
    assertTrue(first.get(0).evict().length >= 1, "room from the policy's own copies, by its"
        + " own scheme (mpcache's takes a whole data set)");
    assertFalse(first.get(2).admitted(), "half of 4 blocks may be pinned, not 3");
    assertEquals(2, policy.pinnedCopies());
    assertTrue(policy.usedBlocks(0) <= 4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache", "lru"})
  void freeingHandsEveryCopyToItsNodeOnceAndForgetsThem(String name) {
    ControlledPolicy policy = policy(name, 2, 4);
    DataSet freed = dataSet(1, 2);
    DataSet kept = dataSet(2, 1);
    job(policy, 0, freed);
    job(policy, 1, freed);
    job(policy, 1, kept);
    DataSet pinned = dataSet(3, 1);
    policy.pin(pinned.id());
    job(policy, 0, pinned);

    assertEquals(4, policy.free(freed.id()).copies());
    assertEquals(1, policy.free(pinned.id()).copies());
    assertEquals(3, policy.pendingEvictions(0));
    long[] onNode0 = policy.drainFreed(0);
    Arrays.sort(onNode0);
    assertArrayEquals(new long[] {block(freed, 0), block(freed, 1), block(pinned, 0)}, onNode0);
    assertEquals(2, policy.drainFreed(1).length);
    assertEquals(0, policy.drainFreed(0).length, "handed over once");
    assertEquals(0, policy.pendingEvictions(0));
    assertFalse(policy.isCached(0, block(freed, 0)) || policy.isCached(1, block(freed, 1)));
    assertTrue(policy.isCached(1, block(kept, 0)));
    assertEquals(1, policy.usedBlocks(1));
    assertTrue(policy.isPinned(pinned.id()), "a free leaves the pin");
    assertTrue(job(policy, 0, pinned).get(0).admitted(), "a read fills it again");
  }

  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache"})
  void aPinnedDataSetIsRememberedWhileItHoldsCopies(String name) {
    ControlledPolicy policy = policy(name, 1, 4);
    DataSet pinned = dataSet(1, 1);
    policy.pin(pinned.id());
    job(policy, 0, pinned);
    assertFalse(policy.forgetDataSet(pinned.id()));
    policy.removed(0, block(pinned, 0));
    assertEquals(0, policy.pinnedCopies());
    assertTrue(policy.forgetDataSet(pinned.id()));
    assertFalse(policy.isPinned(pinned.id()), "forgotten; the namespace says so again");
    assertEquals(0, policy.forgetNode(0).length);
  }

  /** A file moved into a pinned directory brings its cached block along: counted once. */
  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache", "lru"})
  void aCopyWhoseDataSetWasPinnedSinceMovesOverAtItsNextRead(String name) {
    ControlledPolicy policy = policy(name, 1, 4);
    DataSet before = dataSet(1, 1);
    assertTrue(job(policy, 0, before).get(0).admitted());
    DataSet pinned = dataSet(2, 1);
    policy.pin(pinned.id());
    long block = block(before, 0);
    assertTrue(policy.access(0, block, pinned).hit(), "the block now belongs to the pinned set");
    assertEquals(1, policy.usedBlocks(0));
    assertEquals(1, policy.pinnedCopies());
    policy.removed(0, block);
    assertFalse(policy.isCached(0, block), "no copy left behind on either side");
    assertEquals(0, policy.usedBlocks(0));
  }
}
