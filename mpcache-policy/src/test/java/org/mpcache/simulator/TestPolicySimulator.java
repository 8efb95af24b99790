package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;


import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicy;

class TestPolicySimulator {
  private static final Trace SMALL =
      Trace.generate(new PolicySimulator.Settings(7, 1, 300, 1.0, 80 * 1024, 128, 7));

  /**
   * After each job node 0 has half its capacity for input, as where its Dynamic Pool lent the
   * rest to localized data: it frees what it holds over that through the policy's own scheme, as
   * the master has a slave do, and only it does.
   */
  @Test
  void aNodeWhoseRoomShrinksAfterEachJobHoldsNoMoreThanThatRoom() {
    int half = SMALL.settings().cacheBlocksPerNode() / 2;
    for (var policy : PolicySimulator.policies()) {
      ReplacementPolicy instance = policy.get();
      Set<Integer> shrunkNodes = new HashSet<>();
      long[] evictedOnShrink = {0};
      PolicySimulator.Result shrunk = PolicySimulator.run(SMALL, instance, ReadOrder.FILE,
          Integer.MAX_VALUE, (job, node) -> node == 0 ? half : Integer.MAX_VALUE,
          new PolicySimulator.ReadObserver() {
            @Override
            public void read(int job, long block, int node, CacheDecision decision) {
            }

            @Override
            public void roomShrank(int job, int node, long[] evicted) {
              shrunkNodes.add(node);
              evictedOnShrink[0] += evicted.length;
            }
          });
      PolicySimulator.Result full = PolicySimulator.run(SMALL, policy.get(), ReadOrder.FILE);
      assertEquals(Set.of(0), shrunkNodes, shrunk.policy());
      assertTrue(instance.usedBlocks(0) <= half, shrunk.policy() + ": "
          + instance.usedBlocks(0) + " blocks over room for " + half);
      assertTrue(evictedOnShrink[0] > 0, shrunk.policy());
      assertTrue(shrunk.evictedForRoom() >= evictedOnShrink[0], "counted for room");
      assertTrue(shrunk.blockHits() < full.blockHits(), shrunk.policy() + ": "
          + shrunk.blockHits() + " hits against " + full.blockHits() + " with all the room");
    }
  }

  @Test
  void theOfflineBoundBoundsEveryPolicyAndRunsAreRepeatable() {
    for (ReadOrder order : ReadOrder.values()) {
      PolicySimulator.Result bound = OfflineBound.run(SMALL, order);
      for (var policy : PolicySimulator.policies()) {
        ReplacementPolicy instance = policy.get();
        PolicySimulator.Result result = PolicySimulator.run(SMALL, instance, order);
        assertEquals(bound.blockAccesses(), result.blockAccesses(), "same reads for every policy");
        assertTrue(result.blockHitRatio() <= bound.blockHitRatio(),
            result.policy() + " beats the offline bound in " + order + " order");
        assertTrue(result.blockHits() > 0, result.policy() + " never hits");
      }
    }
    assertEquals(PolicySimulator.run(SMALL, new MpCachePolicy(), ReadOrder.FILE).blockHits(),
        PolicySimulator.run(SMALL, new MpCachePolicy(), ReadOrder.FILE).blockHits());
  }

  /**
   * The cap on tracked data sets, as the master applies it: a cap above the trace's data sets
   * changes nothing; a small one forgets data sets through the policy, which then reads them as
   * new (never one holding copies: it may not forget those).
   */
  @Test
  void aCapOnTrackedDataSetsForgetsThemThroughThePolicy() {
    Set<Integer> dataSets = new HashSet<>();
    for (TraceJob job : SMALL) {
      dataSets.add(job.dataSet().id());
    }
    for (var policy : PolicySimulator.policies()) {
      PolicySimulator.Result uncapped = PolicySimulator.run(SMALL, policy.get(), ReadOrder.FILE);
      PolicySimulator.Result roomy = PolicySimulator.run(SMALL, policy.get(), ReadOrder.FILE,
          dataSets.size(), PolicySimulator.RoomAfterJob.UNCHANGED,
          (job, block, node, decision) -> { });
      assertEquals(0, roomy.dataSetsForgotten());
      assertEquals(uncapped.blockHits(), roomy.blockHits(), roomy.policy());
      assertEquals(uncapped.jobHits(), roomy.jobHits(), roomy.policy());

      PolicySimulator.Result capped = PolicySimulator.run(SMALL, policy.get(), ReadOrder.FILE, 2,
          PolicySimulator.RoomAfterJob.UNCHANGED, (job, block, node, decision) -> { });
      assertTrue(capped.dataSetsForgotten() > 0, capped.policy());
      assertEquals(uncapped.blockAccesses(), capped.blockAccesses());
    }
    assertThrows(IllegalArgumentException.class, () -> PolicySimulator.maxTracked("0"));
    assertEquals(Integer.MAX_VALUE, PolicySimulator.maxTracked(""));
  }

  @Test
  void aTraceWrittenAndReadBackGivesEveryPolicyTheSameReads(@TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path file = dir.resolve("trace");
    SMALL.write(file);
    Trace read = Trace.read(file);
    assertEquals(SMALL.settings(), read.settings());
    assertTrue(read.drawn(), "a drawn trace read back still counts the generator's data");
    assertEquals(SMALL.dataBlocks(), read.dataBlocks());
    for (var policy : PolicySimulator.policies()) {
      List<String> generated = new ArrayList<>();
      List<String> replayed = new ArrayList<>();
      PolicySimulator.run(SMALL, policy.get(),
          (job, block, node, decision) -> generated.add(job + " " + block + " " + node + " "
              + decision.hit()));
      PolicySimulator.run(read, policy.get(),
          (job, block, node, decision) -> replayed.add(job + " " + block + " " + node + " "
              + decision.hit()));
      assertEquals(generated, replayed);
    }
  }

  /**
   * Shuffled, each job still reads each of its blocks once, in an order other than the file's
   * for some job, the same for every run of the trace and drawn anew for another trace seed.
   */
  @Test
  void aShuffledOrderReadsEachBlockOnceInTheSameOrderOnEveryRun() {
    List<List<Long>> file = readsByJob(ReadOrder.FILE);
    List<List<Long>> shuffled = readsByJob(ReadOrder.SHUFFLED);
    assertEquals(shuffled, readsByJob(ReadOrder.SHUFFLED));
    assertEquals(file.size(), shuffled.size());
    boolean reordered = false;
    for (int job = 0; job < file.size(); job++) {
      assertEquals(file.get(job), file.get(job).stream().sorted().toList(), "file order");
      assertEquals(file.get(job), shuffled.get(job).stream().sorted().toList());
      reordered |= !file.get(job).equals(shuffled.get(job));
    }
    assertTrue(reordered);
    assertFalse(Arrays.equals(ReadOrder.SHUFFLED.shuffle(20, 1, 0),
        ReadOrder.SHUFFLED.shuffle(20, 2, 0)), "another seed, another order");
    assertFalse(Arrays.equals(ReadOrder.SHUFFLED.shuffle(20, 1, 0),
        ReadOrder.SHUFFLED.shuffle(20, 1, 1)), "another job, another order");
  }

  @Test
  void anUnknownReadOrderIsNamedWithTheKnownOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReadOrder.of("random"));
    assertTrue(e.getMessage().contains("--read-order random: expected one of [file, shuffled]"),
        e.getMessage());
  }

  private static List<List<Long>> readsByJob(ReadOrder order) {
    List<List<Long>> reads = new ArrayList<>();
    PolicySimulator.run(SMALL, new MpCachePolicy(), order, (job, block, node, decision) -> {
      if (job == reads.size()) {
        reads.add(new ArrayList<>());
      }
      reads.get(job).add(block);
    });
    return reads;
  }

  @Test
  void aMalformedTraceIsNamedWithItsLine(@TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("trace");
    java.nio.file.Files.writeString(file, "mpcache-trace 1 nodes=7 tenants=1 jobs=1 s=1.0"
        + " cache-mb=1024 block-mb=128 seed=1\n3 2 10 0,1,2/0\n");
    IOException e = assertThrows(IOException.class, () -> Trace.read(file));
    assertTrue(e.getMessage().contains(file + ":2: malformed job"), e.getMessage());
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

  @Test
  void theOptionsSetTheTraceWithTheirDefaults() {
    PolicySimulator.Settings settings = TraceOptions.settings(
        PolicySimulator.OPTIONS.parse(new String[] {"--nodes", "14", "--seed", "3"}), 100, 5);
    assertEquals(new PolicySimulator.Settings(14, 2, 100, 1.0, 80 * 1024, 128, 3, 5), settings);
  }

  @Test
  void theUsageListsEveryOption() {
    String usage = PolicySimulator.OPTIONS.usage();
    for (String option : List.of("nodes", "tenants", "jobs", "s", "cache-gb", "block-mb", "seed",
        "seeds", "shift", "policies", "csv", "trace", "write-trace", "read-order",
        "max-tracked", "help")) {
      assertTrue(usage.contains("--" + option + " "), option);
    }
  }
}
