package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.policy.PolicyJobs.block;
import static org.mpcache.policy.PolicyJobs.dataSet;
import static org.mpcache.policy.PolicyJobs.job;
import static org.mpcache.policy.PolicyJobs.jobs;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The adaptive memory ranks by the half-life that served the recent past best. */
class TestAdaptiveWholeSetPolicy {
  private static final double SHORT = 2;
  private static final double LONG = 1000;
  private static final DataSet WAS = dataSet(1, 1);
  private static final DataSet NOW = dataSet(2, 1);

  private static AdaptiveWholeSetPolicy policy(int capacity) {
    AdaptiveWholeSetPolicy policy =
        new AdaptiveWholeSetPolicy(new double[] {SHORT, LONG}, 10, 0.01);
    policy.setCapacity(0, capacity);
    return policy;
  }

  /**
   * A cache of one block after {@link #WAS} was read by 40 jobs, then {@link #NOW} by
   * {@code jobsOfNow}.
   */
  private static AdaptiveWholeSetPolicy popularityPassed(int jobsOfNow) {
    AdaptiveWholeSetPolicy policy = policy(1);
    jobs(policy, 0, WAS, 40);
    assertEquals(LONG, policy.rankingHalfLife(), "it starts with the long memory");
    jobs(policy, 0, NOW, jobsOfNow);
    return policy;
  }

  /**
   * One data set's popularity passes to another for good: a long memory would keep refusing the
   * newcomer for the old one's count; the short memory's shadow serves it sooner, and the cache
   * follows it and serves it too.
   */
  @Test
  void aWorkloadWhoseHotDataSetChangesSwitchesToTheShortMemory() {
    AdaptiveWholeSetPolicy policy = popularityPassed(15);
    assertEquals(SHORT, policy.rankingHalfLife());
    assertEquals(1, policy.switches());
    List<CacheDecision> last = job(policy, 0, NOW);
    assertTrue(last.get(0).hit(), "the new hot data set is served");
  }

  /**
   * A steady mix where a short memory lets a data set read twice in a row push out the one read
   * three times as often: the long memory's shadow serves more, and the cache keeps it.
   */
  @Test
  void aSteadyMixKeepsTheLongMemory() {
    AdaptiveWholeSetPolicy policy = policy(1);
    DataSet often = dataSet(1, 1);
    DataSet seldom = dataSet(2, 1);
    for (int cycle = 0; cycle < 20; cycle++) {
      jobs(policy, 0, often, 6);
      jobs(policy, 0, seldom, 2);
    }
    assertEquals(LONG, policy.rankingHalfLife());
    assertEquals(0, policy.switches());
    assertTrue(job(policy, 0, often).get(0).hit());
    assertFalse(job(policy, 0, seldom).get(0).hit());
  }

  /**
   * What the cache holds is what it admitted, not what a shadow decided: the short memory's
   * shadow takes the newcomer on its second read, the cache (on the long memory until the
   * shadow's hits show) does not. Forgotten, the data set leaves the shadows too.
   */
  @Test
  void theCacheHoldsOnlyWhatItAdmitted() {
    AdaptiveWholeSetPolicy policy = popularityPassed(2);
    assertEquals(LONG, policy.rankingHalfLife(), "no hit has shown the shadow better yet");
    assertFalse(policy.isCached(0, block(NOW, 0)));
    assertTrue(policy.isCached(0, block(WAS, 0)));
    assertEquals(1, policy.usedBlocks(0));
    assertTrue(policy.forgetDataSet(NOW.id()));
    assertEquals(1, policy.trackedDataSets());
  }
}
