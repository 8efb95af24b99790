package org.mpcache.simulator;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The clairvoyant bound on block hits beside the real policies: Belady's MIN over blocks, with
 * the whole cluster's cache as one pool (it ignores on which node a copy sits, so no policy that
 * caches per node can beat its block hit ratio). It knows the future, so it is a bound, not a
 * policy. Keeping the blocks read soonest is not what makes whole jobs hit: its result counts
 * no job hits; {@link JobBound} bounds those.
 */
public final class OfflineBound {
  private OfflineBound() {
  }

  /** The bound over the trace's reads, each job's blocks read in {@code order}. */
  public static PolicySimulator.Result run(Trace jobs, ReadOrder order) {
    return run(jobs, order, job -> true);
  }

  /** As {@link #run(Trace, ReadOrder)} in file order, counting jobs from {@code fromJob} on. */
  public static PolicySimulator.Result run(Trace jobs, int fromJob) {
    return run(jobs, ReadOrder.FILE, job -> job >= fromJob);
  }

  /** In file order, counting the jobs {@code measured} accepts by their place in the trace. */
  public static PolicySimulator.Result run(Trace jobs, IntPredicate measured) {
    return run(jobs, ReadOrder.FILE, measured);
  }

  /**
   * The bound, counting the jobs {@code measured} accepts by their place in the trace; the
   * others read as any job does.
   */
  private static PolicySimulator.Result run(Trace jobs, ReadOrder order,
      IntPredicate measured) {
    long start = System.nanoTime();
    PolicySimulator.Settings settings = jobs.settings();
    int accesses = 0;
    for (TraceJob job : jobs) {
      accesses += job.reads();
    }
    long[] blocks = new long[accesses];
    int[] jobOf = new int[accesses];
    int jobIndex = 0;
    int at = 0;
    for (TraceJob job : jobs) {
      int[] shuffle = order.shuffle(job.reads(), settings.seed(), jobIndex);
      for (int k = 0; k < job.reads(); k++, at++) {
        blocks[at] = job.block(job.readIndex(ReadOrder.blockRead(shuffle, k)));
        jobOf[at] = jobIndex;
      }
      jobIndex++;
    }
    int[] nextUse = new int[accesses];
    Map<Long, Integer> seen = new HashMap<>();
    for (int i = accesses - 1; i >= 0; i--) {
      Integer next = seen.put(blocks[i], i);
      nextUse[i] = next == null ? Integer.MAX_VALUE : next;
    }
    long capacity = (long) settings.cacheBlocksPerNode() * settings.nodes();
    Map<Long, Integer> cached = new HashMap<>();
    // Farthest next use first; stale entries (the block was used again since) are skipped.
    PriorityQueue<long[]> farthest = new PriorityQueue<>((a, b) -> Long.compare(b[0], a[0]));
    long hits = 0;
    long evicted = 0;
    long counted = 0;
    for (int i = 0; i < accesses; i++) {
      long block = blocks[i];
      boolean measuredRead = measured.test(jobOf[i]);
      counted += measuredRead ? 1 : 0;
      if (cached.containsKey(block)) {
        hits += measuredRead ? 1 : 0;
      } else {
        if (capacity == 0) {
          continue;
        }
        if (cached.size() >= capacity) {
          while (true) {
            long[] top = farthest.poll();
            Integer current = cached.get(top[1]);
            if (current != null && current == top[0]) {
              if (top[0] < nextUse[i]) {
                farthest.add(top); // everything cached is needed sooner: do not cache
                block = -1;
              } else {
                cached.remove(top[1]);
                evicted++;
              }
              break;
            }
          }
          if (block < 0) {
            continue;
          }
        }
      }
      cached.put(block, nextUse[i]);
      farthest.add(new long[] {nextUse[i], block});
    }
    return new PolicySimulator.Result("offline bound", counted, hits,
        IntStream.range(0, jobIndex).filter(measured).count(), 0,
        evicted, 0, 0, (System.nanoTime() - start) / 1e9, cached.size() + evicted,
        new long[PolicySimulator.QUARTERS], 0);
  }
}
