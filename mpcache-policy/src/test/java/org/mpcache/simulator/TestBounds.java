package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.ReplacementPolicy;

/**
 * The bounds against the exact optimum, found by trying every choice a policy could make on
 * small traces: each bound is at least the optimum, and no policy exceeds the optimum.
 */
class TestBounds {
  private static final int SMALL_BLOCK_MB = 16 * 1024;

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void everyPolicyStaysUnderTheOptimumAndEachBoundAboveIt(int cacheBlocksPerNode) {
    long optima = 0;
    for (long seed = 1; seed <= 30; seed++) {
      optima += assertBoundsHold(smallTrace(cacheBlocksPerNode, seed),
          "seed " + seed + ", " + cacheBlocksPerNode + " blocks a node");
    }
    assertTrue(optima > 0, "traces where some job can hit");
  }

  /**
   * As above, each job reading a random part of its data set (random blocks, from one to all):
   * a job's hit then needs only the blocks it reads.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void theBoundsHoldWhereJobsReadPartOfTheirDataSets(int cacheBlocksPerNode) {
    long optima = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      Trace whole = smallTrace(cacheBlocksPerNode, seed);
      List<TraceJob> jobs = new ArrayList<>();
      for (TraceJob job : whole) {
        int blocks = job.dataSet().blocks();
        jobs.add(new TraceJob(job.dataSet(), job.firstBlock(), job.replicas(), job.named(),
            PartialRead.RANDOM.blocks(blocks, 1 + random.nextInt(blocks), random)));
      }
      optima += assertBoundsHold(Trace.of(whole.settings(), jobs),
          "seed " + seed + ", " + cacheBlocksPerNode + " blocks a node, partial reads");
    }
    assertTrue(optima > 0, "traces where some job can hit");
  }

  private static Trace smallTrace(int cacheBlocksPerNode, long seed) {
    return Trace.generate(new PolicySimulator.Settings(4, 1, 10, 1.5,
        (long) cacheBlocksPerNode * SMALL_BLOCK_MB, SMALL_BLOCK_MB, seed));
  }

  /**
   * Asserts each bound is at least the exact optimum and no policy exceeds it; returns the
   * optimum on job hits.
   */
  private static long assertBoundsHold(Trace trace, String where) {
    long jobOptimum = new ExactOptimum(trace, true).best();
    long blockOptimum = new ExactOptimum(trace, false).best();
    long packing = packingOptimum(JobBound.packing(trace, job -> true));
    long jobBound = JobBound.jobHits(trace, 0);
    PolicySimulator.Result blockBound = OfflineBound.run(trace, ReadOrder.FILE);
    assertTrue(jobOptimum <= packing, where + ": optimum " + jobOptimum
        + " over the packing's " + packing);
    assertTrue(packing <= jobBound, where + ": packing " + packing + " over the bound "
        + jobBound);
    assertTrue(blockOptimum <= blockBound.blockHits(), where + ": block optimum "
        + blockOptimum + " over the offline bound " + blockBound.blockHits());
    for (Supplier<ReplacementPolicy> policy : PolicySimulator.policies()) {
      PolicySimulator.Result result = PolicySimulator.run(trace, policy.get(), ReadOrder.FILE);
      assertTrue(result.jobHits() <= jobOptimum, where + ": " + result.policy() + " hits "
          + result.jobHits() + " jobs, the optimum " + jobOptimum);
      assertTrue(result.blockHits() <= blockOptimum, where + ": " + result.policy()
          + " hits " + result.blockHits() + " blocks, the optimum " + blockOptimum);
    }
    return jobOptimum;
  }

  /**
   * Data sets A (one block, on node 0) and B (two blocks, on nodes 0 and 1) read A B A B on two
   * nodes of one cache block each: keeping A for its second read takes node 0's room that B
   * needs, so one of the two second reads can hit, not both (the packing's relaxation allows
   * 1.5).
   */
  @Test
  void twoDataSetsCompetingForOneNodeHitOnceBetweenThem() {
    DataSet a = new DataSet(0, 1);
    DataSet b = new DataSet(1, 2);
    TraceJob readA = new TraceJob(a, 0, new int[] {0, 1, 0}, new int[] {0});
    TraceJob readB = new TraceJob(b, 10, new int[] {0, 1, 0, 1, 0, 1}, new int[] {0, 0});
    Trace trace = Trace.of(new PolicySimulator.Settings(2, 1, 4, 1.0, 1024, 1024, 0),
        List.of(readA, readB, readA, readB));
    assertEquals(1, new ExactOptimum(trace, true).best());
    assertEquals(1, packingOptimum(JobBound.packing(trace, job -> true)));
    assertEquals(1, JobBound.jobHits(trace, 0));
    assertEquals(1, JobBound.jobHits(trace, 3), "from job 3 on, B's second read alone counts");
  }

  @Test
  void theBoundHoldsOnTheSimulatorsSmallTraceAfterAWarmUp() {
    Trace trace = Trace.generate(new PolicySimulator.Settings(7, 1, 300, 1.0, 80 * 1024, 128, 7));
    for (int from : new int[] {0, 100}) {
      long bound = JobBound.jobHits(trace, from);
      assertTrue(bound <= 300 - from);
      for (Supplier<ReplacementPolicy> supplier : PolicySimulator.policies()) {
        ReplacementPolicy policy = supplier.get();
        long hits = jobHitsFrom(trace, policy, from);
        assertTrue(hits <= bound, policy.name() + " hits " + hits + " jobs from job " + from
            + ", over the bound " + bound);
      }
    }
  }

  private static long jobHitsFrom(Trace trace, ReplacementPolicy policy, int from) {
    Map<Integer, Boolean> allHit = new HashMap<>();
    PolicySimulator.run(trace, policy,
        (job, block, node, decision) -> allHit.merge(job, decision.hit(), Boolean::logicalAnd));
    return allHit.entrySet().stream().filter(e -> e.getKey() >= from && e.getValue()).count();
  }

  /** The packing problem's optimum, over every subset of its intervals. */
  private static long packingOptimum(JobBound.Packing packing) {
    int n = packing.intervals();
    assertTrue(n <= 20, "too many intervals to try every subset: " + n);
    long best = 0;
    for (int subset = 0; subset < 1 << n; subset++) {
      long[] load = new long[packing.boundaries()];
      boolean fits = true;
      for (int i = 0; i < n && fits; i++) {
        if ((subset >> i & 1) == 1) {
          for (int t = packing.first()[i]; t <= packing.last()[i]; t++) {
            load[t] += packing.weight()[i];
            fits &= load[t] <= packing.capacity();
          }
        }
      }
      if (fits) {
        best = Math.max(best, Integer.bitCount(subset));
      }
    }
    return best;
  }

  /**
   * The most job (or block) hits any policy can get on a trace in the simulator's model: a read
   * hits at a replica node holding a copy; a miss is read on the node the trace names, which may
   * cache the block, evicting one of its own copies when full. A policy may also evict copies at
   * other times (elsewhere, or more than room needs); the search moves each such eviction to
   * the next moment it matters: a miss on that node that needs room, or the block's next read,
   * which then misses on the node the trace names (so the block can move). A copy no later read
   * uses is dropped (it only takes room). Every choice is tried, with memoisation.
   */
  private static final class ExactOptimum {
    private final boolean countJobs;
    private final int nodes;
    private final int capacity;
    private final long[] blocks;
    private final int[][] replicas;
    private final int[] named;
    private final boolean[] lastOfJob;
    private final boolean[] readAgain;
    private final Map<String, Long> memo = new HashMap<>();

    ExactOptimum(Trace trace, boolean countJobs) {
      this.countJobs = countJobs;
      this.nodes = trace.settings().nodes();
      this.capacity = trace.settings().cacheBlocksPerNode();
      List<long[]> reads = new ArrayList<>();
      List<int[]> replicaLists = new ArrayList<>();
      for (TraceJob job : trace) {
        for (int k = 0; k < job.reads(); k++) {
          int i = job.readIndex(k);
          int[] nodesOfBlock = new int[PumaWorkload.REPLICATION];
          for (int r = 0; r < nodesOfBlock.length; r++) {
            nodesOfBlock[r] = job.replica(i, r);
          }
          replicaLists.add(nodesOfBlock);
          reads.add(new long[] {job.block(i), job.namedNode(i),
              k == job.reads() - 1 ? 1 : 0});
        }
      }
      assertTrue(reads.size() <= 80, "too many reads to try every choice: " + reads.size());
      blocks = new long[reads.size()];
      named = new int[reads.size()];
      lastOfJob = new boolean[reads.size()];
      readAgain = new boolean[reads.size()];
      replicas = replicaLists.toArray(new int[0][]);
      Map<Long, Integer> later = new HashMap<>();
      for (int i = reads.size() - 1; i >= 0; i--) {
        blocks[i] = reads.get(i)[0];
        named[i] = (int) reads.get(i)[1];
        lastOfJob[i] = reads.get(i)[2] == 1;
        readAgain[i] = later.put(blocks[i], i) != null;
      }
    }

    long best() {
      long[][] empty = new long[nodes][0];
      return best(0, empty, true);
    }

    /** The most hits from read {@code i} on, with these copies, the job all hit so far. */
    private long best(int i, long[][] copies, boolean allHitSoFar) {
      if (i == blocks.length) {
        return 0;
      }
      String key = i + " " + (countJobs && allHitSoFar) + " " + Arrays.deepToString(copies);
      Long known = memo.get(key);
      if (known != null) {
        return known;
      }
      long block = blocks[i];
      int holder = -1;
      for (int node : replicas[i]) {
        if (holder < 0 && Arrays.binarySearch(copies[node], block) >= 0) {
          holder = node;
        }
      }
      long result;
      if (holder >= 0) {
        long gain = countJobs ? (lastOfJob[i] && allHitSoFar ? 1 : 0) : 1;
        long[][] after = readAgain[i] ? copies : without(copies, holder, block);
        result = gain + best(i + 1, after, lastOfJob[i] || allHitSoFar);
        if (readAgain[i]) {
          result = Math.max(result, miss(i, without(copies, holder, block)));
        }
      } else {
        result = miss(i, copies);
      }
      memo.put(key, result);
      return result;
    }

    /** Read {@code i} misses: bypass, or cache on the named node, evicting one copy if full. */
    private long miss(int i, long[][] copies) {
      long block = blocks[i];
      boolean next = lastOfJob[i];
      long result = best(i + 1, copies, next);
      if (readAgain[i]) {
        int node = named[i];
        if (copies[node].length < capacity) {
          result = Math.max(result, best(i + 1, with(copies, node, block), next));
        } else {
          for (long victim : copies[node]) {
            result = Math.max(result,
                best(i + 1, with(without(copies, node, victim), node, block), next));
          }
        }
      }
      return result;
    }

    private static long[][] with(long[][] copies, int node, long block) {
      long[][] changed = copies.clone();
      long[] held = Arrays.copyOf(copies[node], copies[node].length + 1);
      held[held.length - 1] = block;
      Arrays.sort(held);
      changed[node] = held;
      return changed;
    }

    private static long[][] without(long[][] copies, int node, long block) {
      long[][] changed = copies.clone();
      changed[node] = Arrays.stream(copies[node]).filter(b -> b != block).toArray();
      return changed;
    }
  }
}
