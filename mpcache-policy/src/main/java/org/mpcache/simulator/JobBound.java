package org.mpcache.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * An upper bound on the job hits of any policy on a trace (docs/policies.md, "Bounds"), beside
 * {@link OfflineBound}, which bounds block hits only.
 *
 * <p>A job hits when each of its reads finds a copy. Copies are made only when a block is read,
 * so each block a hitting job reads kept a copy from the last earlier job that read it until this
 * one: at every job boundary after the latest of those jobs (just before each later job starts)
 * the cluster held every block the job reads. The jobs that hit therefore pack intervals of
 * boundaries, each weighing the blocks its job reads, under the cluster's copies
 * ({@code nodes × cache blocks a node}) at every boundary: two intervals at one boundary hold
 * different blocks, since a block both jobs read was read again by the first, after the second's
 * interval began. A job reading a block no earlier job read, or more blocks than the cluster's
 * cache holds, never hits. Of jobs that read whole data sets, the interval starts after the
 * previous job over the same data set. The bound is the Lagrangian dual of that
 * packing's linear relaxation, {@code C·Σλ + Σ_j max(0, 1 − s_j·Σ_{t∈I_j} λ_t)}, which is at least
 * the packing's optimum for every {@code λ ≥ 0}: it starts from the best constant multiplier and
 * takes subgradient steps, keeping the lowest value (each one is a valid bound, so the steps only
 * make it tighter). It ignores where copies sit, so no policy that caches per node exceeds it.
 */
public final class JobBound {
  /** Subgradient steps after the best constant multiplier. */
  static final int STEPS = 300;
  /** Slack against rounding before the bound is floored to whole jobs. */
  private static final double ROUNDING = 1e-6;

  private JobBound() {
  }

  /**
   * The hitting jobs' packing problem: for each job that can hit, the boundaries the blocks it
   * reads must stay cached over, {@code first[i]..last[i]} (boundary t: just before job t), and
   * its weight in blocks; {@code boundaries} is the trace's job count.
   */
  record Packing(int[] first, int[] last, int[] weight, int boundaries, long capacity) {
    int intervals() {
      return weight.length;
    }
  }

  /** The bound on jobs that hit from {@code fromJob} on (earlier jobs warm the cache). */
  public static long jobHits(Trace trace, int fromJob) {
    return jobHits(trace, job -> job >= fromJob);
  }

  /**
   * The bound on the jobs {@code measured} accepts (by their place in the trace) that hit; the
   * others read as any job does but are not counted (a warm-up, reads of a job's input before its
   * tasks).
   */
  public static long jobHits(Trace trace, IntPredicate measured) {
    return (long) Math.floor(dual(packing(trace, measured)) + ROUNDING);
  }

  static Packing packing(Trace trace, IntPredicate measured) {
    PolicySimulator.Settings settings = trace.settings();
    long capacity = (long) settings.cacheBlocksPerNode() * settings.nodes();
    Map<Long, Integer> lastRead = new HashMap<>(); // by block, the last job that read it
    List<int[]> intervals = new ArrayList<>();
    int job = 0;
    for (TraceJob traced : trace) {
      int since = -1;
      boolean everyBlockReadBefore = true;
      for (int k = 0; k < traced.reads(); k++) {
        Integer previous = lastRead.put(traced.block(traced.readIndex(k)), job);
        everyBlockReadBefore &= previous != null;
        since = Math.max(since, previous == null ? -1 : previous);
      }
      int blocks = traced.reads();
      if (measured.test(job) && everyBlockReadBefore && blocks <= capacity) {
        intervals.add(new int[] {since + 1, job, blocks});
      }
      job++;
    }
    int[] first = new int[intervals.size()];
    int[] last = new int[intervals.size()];
    int[] weight = new int[intervals.size()];
    for (int i = 0; i < first.length; i++) {
      first[i] = intervals.get(i)[0];
      last[i] = intervals.get(i)[1];
      weight[i] = intervals.get(i)[2];
    }
    return new Packing(first, last, weight, job, capacity);
  }

  /** The lowest dual value found: at least the packing's optimum. */
  static double dual(Packing packing) {
    int n = packing.intervals();
    if (n == 0) {
      return 0;
    }
    boolean[] covered = covered(packing);
    double constant = bestConstant(packing, covered);
    double[] lambda = new double[packing.boundaries()];
    for (int t = 0; t < lambda.length; t++) {
      lambda[t] = covered[t] ? constant : 0;
    }
    double best = n; // λ = 0
    double step = constant > 0 ? constant : 1.0 / packing.capacity();
    double[] prefix = new double[lambda.length + 1];
    long[] load = new long[lambda.length + 1];
    for (int k = 0; k <= STEPS; k++) {
      for (int t = 0; t < lambda.length; t++) {
        prefix[t + 1] = prefix[t] + lambda[t];
      }
      Arrays.fill(load, 0);
      double value = packing.capacity() * prefix[lambda.length];
      for (int i = 0; i < n; i++) {
        double price = packing.weight()[i]
            * (prefix[packing.last()[i] + 1] - prefix[packing.first()[i]]);
        if (price < 1) {
          value += 1 - price;
          load[packing.first()[i]] += packing.weight()[i];
          load[packing.last()[i] + 1] -= packing.weight()[i];
        }
      }
      best = Math.min(best, value);
      // Projected subgradient step: a boundary loaded past the capacity gets dearer.
      double rate = step / Math.sqrt(k + 1.0);
      long running = 0;
      for (int t = 0; t < lambda.length; t++) {
        running += load[t];
        if (covered[t]) {
          double slack = (packing.capacity() - running) / (double) packing.capacity();
          lambda[t] = Math.max(0, lambda[t] - rate * slack);
        }
      }
    }
    return best;
  }

  /** Which boundaries some interval spans (the others keep a zero multiplier). */
  private static boolean[] covered(Packing packing) {
    int[] starts = new int[packing.boundaries() + 1];
    for (int i = 0; i < packing.intervals(); i++) {
      starts[packing.first()[i]]++;
      starts[packing.last()[i] + 1]--;
    }
    boolean[] covered = new boolean[packing.boundaries()];
    int open = 0;
    for (int t = 0; t < covered.length; t++) {
      open += starts[t];
      covered[t] = open > 0;
    }
    return covered;
  }

  /**
   * The constant multiplier c over the spanned boundaries that minimises the dual,
   * {@code C·c·T + Σ max(0, 1 − a_i·c)} with {@code a_i} the interval's weight times its length:
   * convex and piecewise linear in c, lowest where its slope turns non-negative.
   */
  static double bestConstant(Packing packing, boolean[] covered) {
    long spanned = 0;
    for (boolean c : covered) {
      spanned += c ? 1 : 0;
    }
    int n = packing.intervals();
    double[] a = new double[n];
    double slope = (double) packing.capacity() * spanned;
    for (int i = 0; i < n; i++) {
      a[i] = (double) packing.weight()[i] * (packing.last()[i] - packing.first()[i] + 1);
      slope -= a[i];
    }
    if (slope >= 0) {
      return 0;
    }
    Arrays.sort(a);
    // Past c = 1 / a_i the i-th term is flat: the largest a_i flattens first.
    for (int i = n - 1; i >= 0; i--) {
      slope += a[i];
      if (slope >= 0) {
        return 1 / a[i];
      }
    }
    return 1 / a[0];
  }
}
