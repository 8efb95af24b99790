package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.policy.PolicyJobs.block;
import static org.mpcache.policy.PolicyJobs.dataSet;
import static org.mpcache.policy.PolicyJobs.job;
import static org.mpcache.policy.PolicyJobs.jobs;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Scenarios that only a whole-data-set policy with node-local eviction passes. */
class TestWholeSetPolicy {
  private static WholeSetPolicy policy(double halfLife, int nodes, int capacity) {
    WholeSetPolicy policy = new WholeSetPolicy(halfLife, 0, 1);
    for (int node = 0; node < nodes; node++) {
      policy.setCapacity(node, capacity);
    }
    return policy;
  }

  @Test
  void aDataSetWithRoomIsCachedWholeAndHitsWhole() {
    WholeSetPolicy policy = policy(1000, 1, 4);
    DataSet a = dataSet(1, 2);
    assertTrue(job(policy, 0, a).stream().allMatch(CacheDecision::admitted));
    assertTrue(job(policy, 0, a).stream().allMatch(CacheDecision::hit));
  }

  /**
   * A newcomer is refused whole while it is read less than the complete data set it would
   * displace, and admitted whole once read more: never a part of it, and the part of the
   * displaced data set left behind goes next.
   */
  @Test
  void admissionIsDecidedOncePerAccessForTheWholeDataSet() {
    WholeSetPolicy policy = policy(1000, 1, 2);
    DataSet hot = dataSet(1, 2);
    jobs(policy, 0, hot, 3);
    DataSet newcomer = dataSet(2, 2);
    for (int i = 0; i < 2; i++) {
      List<CacheDecision> refused = job(policy, 0, newcomer);
      assertFalse(refused.get(0).admitted() || refused.get(1).admitted(),
          "read " + (i + 1) + " time(s), less than the hot data set's 3");
      assertTrue(policy.isCached(0, block(hot, 0)) && policy.isCached(0, block(hot, 1)));
    }
    List<CacheDecision> third = job(policy, 0, newcomer); // 3 reads, now against 3 decayed
    assertTrue(third.get(0).admitted() && third.get(1).admitted());
    assertEquals(1, third.get(0).evict().length);
    assertEquals(1, third.get(1).evict().length, "the hot data set's other block goes next");
    assertFalse(policy.isCached(0, block(hot, 0)) || policy.isCached(0, block(hot, 1)));
    assertTrue(job(policy, 0, newcomer).stream().allMatch(CacheDecision::hit));
  }

  /**
   * Room on node 0 comes from node 0 only: the spread data set loses its copy there and keeps
   * the one on node 1 (nothing condemned); broken, it is what goes first on node 1 next.
   */
  @Test
  void evictionTakesCopiesOnTheNodeNeedingRoomOnlyAndBrokenDataSetsGoFirst() {
    WholeSetPolicy policy = policy(1000, 2, 1);
    DataSet spread = dataSet(1, 2);
    policy.dataSetAccessed(spread);
    assertTrue(policy.access(0, block(spread, 0), spread).admitted());
    assertTrue(policy.access(1, block(spread, 1), spread).admitted());

    DataSet warm = dataSet(2, 1);
    policy.dataSetAccessed(warm);
    policy.dataSetAccessed(warm);
    CacheDecision onNode0 = job(policy, 0, warm).get(0); // read 3 times against 1
    assertTrue(onNode0.admitted());
    assertArrayEquals(new long[] {block(spread, 0)}, onNode0.evict());
    assertTrue(policy.isCached(1, block(spread, 1)), "its copy on node 1 stays");
    assertArrayEquals(new long[0], policy.drainPendingEvictions(1));
    assertEquals(1, policy.usedBlocks(1));
    assertEquals(List.of(), policy.takeDataSetsEvicted());

    DataSet next = dataSet(3, 1);
    policy.dataSetAccessed(next);
    CacheDecision onNode1 = job(policy, 1, next).get(0); // broken data sets cost nothing
    assertTrue(onNode1.admitted());
    assertArrayEquals(new long[] {block(spread, 1)}, onNode1.evict());
    assertEquals(List.of(1), policy.takeDataSetsEvicted().stream()
        .map(ReplacementPolicy.DataSetEviction::dataSetId).toList());
  }

  @Test
  void accessesDecaySoAnOldFavouriteYieldsToANewcomer() {
    for (double halfLife : new double[] {2, 1000}) {
      WholeSetPolicy policy = policy(halfLife, 1, 1);
      DataSet old = dataSet(1, 1);
      jobs(policy, 0, old, 4);
      for (int i = 0; i < 10; i++) {
        policy.dataSetAccessed(dataSet(9, 1)); // other jobs, elsewhere
      }
      CacheDecision newcomer = job(policy, 0, dataSet(2, 1)).get(0);
      assertEquals(halfLife == 2, newcomer.admitted(), "half-life " + halfLife);
    }
  }

  /** One node of {@code capacity}, 4 protected accesses, {@code popular} read three times. */
  private static WholeSetPolicy withPopular(int capacity, DataSet popular) {
    WholeSetPolicy policy = new WholeSetPolicy(1000, 0, 4);
    policy.setCapacity(0, capacity);
    jobs(policy, 0, popular, 3);
    return policy;
  }

  private static void assertOneEvictedOf(DataSet dataSet, long[] evicted) {
    assertEquals(1, evicted.length);
    assertTrue(evicted[0] / 100 == dataSet.id(), "evicted " + evicted[0]);
  }

  /**
   * A shrinking node gives up the lowest rate per block first, even a data set admitted just
   * now: shrinking fills nothing.
   */
  @Test
  void evictFromTakesTheLowestRatePerBlockEvenJustAdmitted() {
    DataSet popular = dataSet(1, 1);
    WholeSetPolicy policy = withPopular(3, popular);
    DataSet large = dataSet(2, 2);
    job(policy, 0, large); // admitted by the last access: no other data set may evict it
    assertOneEvictedOf(large, policy.evictFrom(0, 1));
    assertTrue(policy.isCached(0, block(popular, 0)));
    assertEquals(2, policy.usedBlocks(0));
  }

  /** A shrinking node spares a data set still being filled while others hold enough. */
  @Test
  void evictFromSparesADataSetBeingFilled() {
    DataSet popular = dataSet(1, 2);
    WholeSetPolicy policy = withPopular(4, popular);
    DataSet filling = dataSet(2, 2);
    policy.dataSetAccessed(filling);
    assertTrue(policy.access(0, block(filling, 0), filling).admitted()); // its job reads on
    assertOneEvictedOf(popular, policy.evictFrom(0, 1));
    assertTrue(policy.access(0, block(filling, 1), filling).admitted());
    assertTrue(policy.isCached(0, block(filling, 0)), "the fill under way was broken");
  }

  /**
   * An access moves a data set later on the nodes holding it (when an eviction there reaches
   * it): what is evicted follows the accesses since the copies were made.
   */
  @Test
  void evictionOnANodeFollowsTheAccessesSinceItsCopiesWereMade() {
    WholeSetPolicy policy = policy(1000, 1, 2);
    DataSet a = dataSet(1, 1);
    DataSet b = dataSet(2, 1);
    job(policy, 0, a); // read once: below b
    jobs(policy, 0, b, 2);
    jobs(policy, 0, a, 3); // read four times now: above b
    assertArrayEquals(new long[] {block(b, 0)}, policy.evictFrom(0, 1));
  }

  @Test
  void restoredRemovedAndForgottenCopiesKeepTheCounts() {
    WholeSetPolicy policy = policy(1000, 2, 2);
    DataSet a = dataSet(1, 2);
    policy.restore(0, block(a, 0), a);
    policy.restore(1, block(a, 1), a);
    assertTrue(policy.isCached(0, block(a, 0)));
    assertEquals(1, policy.usedBlocks(1));
    policy.removed(1, block(a, 1));
    assertEquals(0, policy.usedBlocks(1));
    assertArrayEquals(new long[0], policy.forgetNode(0));
    assertEquals(0, policy.usedBlocks(0));
    assertTrue(Double.isNaN(policy.priority(a.id())));
    assertFalse(job(policy, 0, a).get(0).admitted(),
        "a forgotten node has no room until it declares it again");
    policy.setCapacity(0, 2); // it registers again
    assertTrue(job(policy, 0, a).stream().allMatch(CacheDecision::admitted),
        "the room the forgotten copies took is free again");
  }

  /**
   * The cluster has room (node 1 is empty), but a read on node 0 needs room there, held by a
   * data set read more than the newcomer: the newcomer is refused rather than break it.
   */
  @Test
  void roomOnANodeIsNotTakenFromADataSetWorthMoreThanTheNewcomer() {
    WholeSetPolicy policy = policy(1000, 2, 1);
    DataSet hot = dataSet(1, 1);
    jobs(policy, 0, hot, 3);
    assertFalse(job(policy, 0, dataSet(2, 1)).get(0).admitted());
    assertTrue(policy.isCached(0, block(hot, 0)));
    CacheDecision elsewhere = job(policy, 1, dataSet(3, 1)).get(0);
    assertTrue(elsewhere.admitted());
    assertArrayEquals(new long[0], elsewhere.evict());
  }

  @Test
  void theRegistryNamesPoliciesWithTheirFilters() {
    assertEquals("wholeset", ReplacementPolicies.create("wholeset", 1, 0.01).name());
    assertEquals("lru+admission", ReplacementPolicies.create("lru+admission", 1, 0.01).name());
    assertEquals("mpcache", ReplacementPolicies.create("mpcache", 1, 0.01).name());
    assertEquals("mpcache+admission",
        ReplacementPolicies.create("mpcache+admission", 1, 0.01).name());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReplacementPolicies.create("lru+worthless", 1, 0.01));
    assertTrue(e.getMessage().contains("wholeset") && e.getMessage().contains("admission"),
        e.getMessage());
    ReplacementPolicies.NAMES.forEach(ReplacementPolicies::check);
    assertEquals("wholeset:500.0:0.0:4", ReplacementPolicies.create("wholeset:500", 1, 0.01)
        .name());
    assertEquals("wholeset", ReplacementPolicies.create("wholeset:100000:0:4", 1, 0.01)
        .name());
    IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
        () -> ReplacementPolicies.create("wholeset:soon", 1, 0.01));
    assertTrue(malformed.getMessage().contains("wholeset:soon"), malformed.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ReplacementPolicies.check("lru:5"));
  }

  /**
   * Counts are kept under every half-life given, and ranks follow the one chosen, at once: a
   * data set read often long ago outranks one read twice of late under a long memory, not under
   * a short one.
   */
  @Test
  void rankingByAnotherHalfLifeChangesWhatLeavesFirst() {
    long[] evicted = new long[2];
    for (int ranking = 0; ranking < 2; ranking++) {
      WholeSetPolicy policy = new WholeSetPolicy(new double[] {1000, 1}, 0, 1);
      policy.setCapacity(0, 2);
      DataSet old = dataSet(1, 1);
      DataSet recent = dataSet(2, 1);
      jobs(policy, 0, old, 6);
      jobs(policy, 0, recent, 2);
      assertEquals(1000, policy.rankingHalfLife());
      policy.rankBy(ranking);
      assertEquals(ranking == 0 ? 1000 : 1, policy.rankingHalfLife());
      long[] one = policy.evictFrom(0, 1);
      assertEquals(1, one.length);
      evicted[ranking] = one[0];
    }
    assertArrayEquals(new long[] {block(dataSet(2, 1), 0), block(dataSet(1, 1), 0)}, evicted,
        "a long memory lets the recent data set go, a short one the old");
  }
}
