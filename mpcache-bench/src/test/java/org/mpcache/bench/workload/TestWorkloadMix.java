package org.mpcache.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.mpcache.puma.InputSource;
import org.mpcache.puma.PumaBenchmarks;

class TestWorkloadMix {
  private static WorkloadMix mix(long seed) {
    return new WorkloadMix(PumaBenchmarks.all(), 0, 200, 1.0, 10, 1 << 20, seed);
  }

  @Test
  void theSameSeedGivesTheSameJobs() {
    assertEquals(mix(3).jobs(), mix(3).jobs());
    assertNotEquals(mix(3).jobs(), mix(4).jobs());
  }

  @Test
  void jobsReadTheirBenchmarksSourceAndShareDataSets() {
    WorkloadMix mix = mix(1);
    Set<String> benchmarks = new HashSet<>();
    int[] perK = new int[11];
    for (WorkloadMix.JobSpec job : mix.jobs()) {
      assertEquals(job.benchmark().source(), job.input().source());
      benchmarks.add(job.benchmark().name());
      perK[job.input().k()]++;
    }
    assertEquals(13, benchmarks.size(), "200 draws reach every benchmark");
    assertTrue(mix.dataSets().size() < mix.jobs().size() / 2, "jobs re-read shared data");
    assertTrue(perK[1] > perK[2] && perK[2] > perK[10], "Zipf: small inputs are most common");
  }

  @Test
  void theHistoryPrecedesTheTimedJobsOfTheSameDraws() {
    WorkloadMix withHistory = new WorkloadMix(PumaBenchmarks.all(), 30, 10, 1.0, 10, 1 << 20, 7);
    WorkloadMix all = new WorkloadMix(PumaBenchmarks.all(), 0, 40, 1.0, 10, 1 << 20, 7);
    assertEquals(30, withHistory.history().size());
    assertEquals(-30, withHistory.history().get(0).index());
    assertEquals(0, withHistory.jobs().get(0).index());
    for (int i = 0; i < 40; i++) {
      WorkloadMix.JobSpec split = i < 30 ? withHistory.history().get(i)
          : withHistory.jobs().get(i - 30);
      assertEquals(all.jobs().get(i).benchmark(), split.benchmark());
      assertEquals(all.jobs().get(i).input(), split.input());
    }
    assertEquals(all.dataSets(), withHistory.dataSets(), "the cache competes for both");
  }

  @Test
  void sizesFollowTableOneScaledByK() {
    WorkloadMix.DataSet wiki = new WorkloadMix(PumaBenchmarks.all().subList(0, 1), 0, 1, 1.0, 1,
        3 << 20, 1).jobs().get(0).input();
    assertEquals(InputSource.WIKIPEDIA, wiki.source());
    assertEquals((long) (4.3 * (1 << 20)), wiki.bytes(), "4.3 GB against the 3.0 GB base");
  }

  @Test
  void eachSourceTakesItsOwnRowOfTableOne() {
    for (InputSource source : InputSource.values()) {
      assertEquals(source.name(), WorkloadMix.tableOneRow(source).name());
    }
  }
}
