package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicy;

class TestPolicySimulator {
  private static final PolicySimulator.Settings SMALL =
      new PolicySimulator.Settings(7, 1, 300, 1.0, 80 * 1024, 128, 7);

  @Test
  void theOfflineBoundBoundsEveryPolicyAndRunsAreRepeatable() {
    PolicySimulator.Result bound = OfflineBound.run(SMALL);
    for (var policy : PolicySimulator.policies()) {
      ReplacementPolicy instance = policy.get();
      PolicySimulator.Result result = PolicySimulator.run(SMALL, instance);
      assertEquals(bound.blockAccesses(), result.blockAccesses(), "same trace for every policy");
      assertTrue(result.blockHitRatio() <= bound.blockHitRatio(),
          result.policy() + " beats the offline bound");
      assertTrue(result.blockHits() > 0, result.policy() + " never hits");
    }
    assertEquals(PolicySimulator.run(SMALL, new MpCachePolicy()).blockHits(),
        PolicySimulator.run(SMALL, new MpCachePolicy()).blockHits());
  }

  @Test
  void zipfParameterSkewsJobsTowardsSmallInputs() {
    PumaWorkload skewed = new PumaWorkload(7, 1, 2.0, 128, 1);
    PumaWorkload flat = new PumaWorkload(7, 1, 0.2, 128, 1);
    assertTrue(meanBlocks(skewed) < meanBlocks(flat));
  }

  private static double meanBlocks(PumaWorkload workload) {
    PumaWorkload.JobStream jobs = workload.jobs();
    long sum = 0;
    for (int i = 0; i < 2000; i++) {
      sum += jobs.next().blocks();
    }
    return sum / 2000.0;
  }

  @Test
  void replicasAreDistinctNodes() {
    PumaWorkload workload = new PumaWorkload(7, 1, 1.0, 128, 1);
    int[] replicas = new int[3];
    for (long block = 0; block < 1000; block++) {
      workload.replicas(block, replicas);
      assertEquals(3, java.util.Arrays.stream(replicas).distinct().count());
    }
  }
}
