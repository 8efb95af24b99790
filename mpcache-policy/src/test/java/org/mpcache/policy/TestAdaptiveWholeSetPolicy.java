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
  private static final DataSet OFTEN = dataSet(1, 1);
  private static final DataSet SELDOM = dataSet(2, 1);
  private static final DataSet NEW = dataSet(3, 1);

  /**
   * A cache of one block after a steady mix: {@link #OFTEN} read six times, then {@link #SELDOM}
   * twice, twenty times over. A short memory lets the data set read twice in a row push out the
   * one read three times as often; the long memory's shadow serves more, and the cache, started
   * on the short memory, follows it once.
   */
  private static AdaptiveWholeSetPolicy afterASteadyMix() {
    AdaptiveWholeSetPolicy policy = new AdaptiveWholeSetPolicy(new double[] {SHORT, LONG}, 10,
        0.01);
    policy.setCapacity(0, 1);
    for (int cycle = 0; cycle < 20; cycle++) {
      jobs(policy, 0, OFTEN, 6);
      jobs(policy, 0, SELDOM, 2);
    }
    return policy;
  }

  @Test
  void aSteadyMixSwitchesToTheLongMemory() {
    AdaptiveWholeSetPolicy policy = afterASteadyMix();
    assertEquals(LONG, policy.rankingHalfLife());
    assertEquals(1, policy.switches());
    assertTrue(job(policy, 0, OFTEN).get(0).hit());
    assertFalse(job(policy, 0, SELDOM).get(0).hit());
  }

  /**
   * Popularity then passes to another data set for good: the long memory would keep refusing
   * the newcomer for the old one's count; the short memory's shadow serves it sooner, and the
   * cache goes back to the short memory and serves it too.
   */
  @Test
  void aWorkloadWhoseHotDataSetChangesSwitchesBackToTheShortMemory() {
    AdaptiveWholeSetPolicy policy = afterASteadyMix();
    jobs(policy, 0, NEW, 15);
    assertEquals(SHORT, policy.rankingHalfLife());
    assertEquals(2, policy.switches());
    List<CacheDecision> last = job(policy, 0, NEW);
    assertTrue(last.get(0).hit(), "the new hot data set is served");
  }

  /**
   * What the cache holds is what it admitted, not what a shadow decided: the short memory's
   * shadow takes the newcomer on its fourth read (what it took last is protected for three
   * accesses), the cache (on the long memory until the shadow's hits show) does not.
   */
  @Test
  void theCacheHoldsOnlyWhatItAdmitted() {
    AdaptiveWholeSetPolicy policy = afterASteadyMix();
    jobs(policy, 0, NEW, 4);
    assertEquals(LONG, policy.rankingHalfLife(), "no hit has shown the shadow better yet");
    assertFalse(policy.isCached(0, block(NEW, 0)));
    assertTrue(policy.isCached(0, block(OFTEN, 0)));
    assertEquals(1, policy.usedBlocks(0));
    assertTrue(policy.forgetDataSet(NEW.id()));
    assertEquals(2, policy.trackedDataSets());
  }

  @Test
  void itStartsOnTheShortestMemoryWhereverItIsGiven() {
    for (double[] halfLives : List.of(new double[] {SHORT, LONG}, new double[] {LONG, SHORT})) {
      assertEquals(SHORT, new AdaptiveWholeSetPolicy(halfLives, 10, 0.01).rankingHalfLife());
    }
  }

  @Test
  void itsNameGivesItsParametersBack() {
    AdaptiveWholeSetPolicy policy = new AdaptiveWholeSetPolicy(new double[] {LONG, SHORT}, 10,
        0.01);
    String[] name = policy.name().split(":", 2);
    assertEquals("wholeset-adaptive", name[0]);
    assertEquals(policy.name(),
        AdaptiveWholeSetPolicy.fromParameters(List.of(name[1].split(":"))).name());
    assertEquals("wholeset-adaptive", AdaptiveWholeSetPolicy.fromParameters(List.of()).name());
  }
}
