package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.JobPairs.Pair;
import org.mpcache.bench.harness.JobPairs.Stratum;

class TestJobPairs {
  private static JobResult job(ClusterSetup setup, long seed, int index, String benchmark) {
    return new JobResult(setup, seed, index, benchmark, "in/k" + index, 1, 10, 5, 5, Double.NaN,
        Double.NaN, Double.NaN, Double.NaN, Double.NaN, 1, Double.NaN, 0, Double.NaN, false,
        true, JobResult.NOT_MEASURED, List.of(), "");
  }

  /** Stock ran jobs 0–3 of seeds 1 and 2; mpCache all but seed 2's job 1. */
  private static List<JobResult> results() {
    List<JobResult> results = new ArrayList<>();
    for (long seed = 1; seed <= 2; seed++) {
      for (int index = 0; index < 4; index++) {
        results.add(job(ClusterSetup.STOCK, seed, index, "grep"));
        if (seed != 2 || index != 1) {
          results.add(job(ClusterSetup.MPCACHE, seed, index, "grep"));
        }
      }
    }
    return results;
  }

  @Test
  void jobsPairWithTheSameSeedAndIndex() {
    SortedMap<Stratum, List<Pair>> pairs =
        new JobPairs(results()).between(ClusterSetup.STOCK, ClusterSetup.MPCACHE);
    Stratum seed1 = new Stratum(1, "");
    Stratum seed2 = new Stratum(2, "");
    assertEquals(List.of(seed1, seed2), List.copyOf(pairs.keySet()));
    assertEquals(4, pairs.get(seed1).size());
    assertEquals(List.of(0, 2, 3), pairs.get(seed2).stream().map(p -> p.job().index()).toList());
    for (Pair pair : pairs.get(seed2)) {
      assertEquals(ClusterSetup.STOCK, pair.reference().setup());
      assertEquals(pair.job().index(), pair.reference().index());
      assertEquals(2, pair.reference().seed());
    }
  }

  @Test
  void aCompletePairingHasNoGaps() {
    assertEquals(List.of(), new JobPairs(results()).gaps(ClusterSetup.STOCK, ClusterSetup.STOCK));
  }

  @Test
  void gapsNameMissingUnpairedDifferentAndRepeatedJobs() {
    List<JobResult> results = results();
    results.add(job(ClusterSetup.MPCACHE, 3, 0, "grep"));
    results.add(job(ClusterSetup.MPCACHE, 3, 1, "grep"));
    results.set(results.indexOf(job(ClusterSetup.MPCACHE, 1, 2, "grep")),
        job(ClusterSetup.MPCACHE, 1, 2, "sort"));
    results.add(job(ClusterSetup.MPCACHE, 1, 3, "grep"));
    assertEquals(List.of(
        "mpcache seed 1: job 2 is sort on in/k2, stock's is grep on in/k2",
        "mpcache seed 2: job 1 missing",
        "mpcache seed 3: jobs 0, 1 not run by stock",
        "mpcache seed 1: job 3 more than once (the first counts)"),
        new JobPairs(results).gaps(ClusterSetup.STOCK, ClusterSetup.MPCACHE));
  }

  /**
   * Seed 1 in two sittings: stock and mpCache in "a", stock and the in-memory cache in "b" (a
   * slower day). Each pairs with its own sitting's stock, and neither is missing from the other.
   */
  @Test
  void jobsOfMergedSittingsPairWithinTheirSitting() {
    List<JobResult> results = new ArrayList<>();
    for (int index = 0; index < 4; index++) {
      results.add(job(ClusterSetup.STOCK, 1, index, "grep").inSitting("a"));
      results.add(job(ClusterSetup.MPCACHE, 1, index, "grep").inSitting("a"));
      results.add(job(ClusterSetup.STOCK, 1, index, "grep").inSitting("b"));
      if (index != 1) {
        results.add(job(ClusterSetup.MEMORY, 1, index, "grep").inSitting("b"));
      }
    }
    JobPairs pairs = new JobPairs(results);
    assertEquals(List.of(new Stratum(1, "a"), new Stratum(1, "b")), List.copyOf(pairs.strata()));
    assertTrue(pairs.merged());
    SortedMap<Stratum, List<Pair>> memory = pairs.between(ClusterSetup.STOCK,
        ClusterSetup.MEMORY);
    assertEquals(List.of(new Stratum(1, "b")), List.copyOf(memory.keySet()));
    memory.get(new Stratum(1, "b")).forEach(pair -> assertEquals("b",
        pair.reference().sitting()));
    assertEquals(4, pairs.between(ClusterSetup.STOCK, ClusterSetup.MPCACHE)
        .get(new Stratum(1, "a")).size());
    assertEquals(List.of(), pairs.gaps(ClusterSetup.STOCK, ClusterSetup.MPCACHE));
    assertEquals(List.of("memory seed 1 (b): job 1 missing"),
        pairs.gaps(ClusterSetup.STOCK, ClusterSetup.MEMORY));
    assertFalse(new JobPairs(results()).merged());
  }

  @Test
  void jobListsShowRunsAsRanges() {
    assertEquals("job 3", JobPairs.jobList(new TreeSet<>(List.of(3))));
    assertEquals("jobs 0, 1", JobPairs.jobList(new TreeSet<>(List.of(1, 0))));
    assertEquals("jobs 0–29, 31", JobPairs.jobList(new TreeSet<>(
        IntStream.rangeClosed(0, 31).filter(i -> i != 30).boxed().toList())));
  }
}
