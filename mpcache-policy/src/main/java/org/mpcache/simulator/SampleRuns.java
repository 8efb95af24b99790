package org.mpcache.simulator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Policies on each hourly sample of a SWIM workload alone (docs/policies.md, "Real workloads"):
 * SWIM drew each sample from another stretch of the cluster's history and joined them end to
 * end, so a data set read in two samples was read again across a seam the sampling made, not
 * an hour later. Each sample therefore starts with an empty cache and forms its own data sets,
 * and the samples are the independent observations: means with 95 % Student t intervals over
 * them, and each policy's paired per-sample difference from the first one listed. The cache is
 * given as a share of each sample's re-read working set (the blocks more than one of its jobs
 * read, one replica), spread over the nodes.
 */
final class SampleRuns {
  /** One policy on one sample at one cache share (ratios 0..1). */
  record Run(String policy, int sample, double share, double blockHit, double jobHit,
      double writtenPerHit, double nsPerEvent) {
  }

  private SampleRuns() {
  }

  /**
   * Runs every policy on every sample of {@code fromSample..toSample} that reads input, at each
   * cache share, and prints the tables.
   *
   * @param base the cluster and block size and the seed; its cache is replaced by each share's
   */
  static void run(List<SwimTrace.Job> workload, SwimTrace.DataSetReading reading,
      PartialRead partialRead, int fromSample, int toSample, PolicySimulator.Settings base,
      List<Double> shares, List<String> policies, ReadOrder order, PrintStream out) {
    List<Run> runs = new ArrayList<>();
    List<Run> bounds = new ArrayList<>();
    for (int sample = fromSample; sample <= toSample; sample++) {
      int only = sample;
      if (workload.stream().noneMatch(job -> job.sample() == only && job.inputBytes() > 0)) {
        continue;
      }
      Trace trace = SwimTrace.trace(workload, reading, partialRead, sample, sample, base);
      long workingSet = rereadBlocks(trace);
      for (double share : shares) {
        long cacheBlocks = (long) Math.ceil(share * workingSet / base.nodes());
        Trace sized = trace.withCacheMbPerNode(cacheBlocks * base.blockMb());
        for (String policy : policies) {
          PolicySimulator.Result result = PolicySimulator.run(sized,
              SimulatorPolicies.create(policy), order);
          runs.add(new Run(result.policy(), sample, share, result.blockHitRatio(),
              result.jobHitRatio(), (double) result.blocksWritten()
                  / Math.max(1, result.blockHits()), result.nsPerEvent()));
        }
        PolicySimulator.Result blockBound = OfflineBound.run(sized, order);
        bounds.add(new Run("upper bounds", sample, share, blockBound.blockHitRatio(),
            (double) JobBound.jobHits(sized, 0) / sized.jobs(), Double.NaN, Double.NaN));
      }
    }
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("samples " + fromSample + "-" + toSample
          + " hold no job that reads input");
    }
    print(runs, bounds, shares, order, out);
  }

  /** Blocks (one replica) that more than one job of the trace reads. */
  static long rereadBlocks(Trace trace) {
    Set<Long> read = new HashSet<>();
    Set<Long> reread = new HashSet<>();
    for (TraceJob job : trace) {
      for (int k = 0; k < job.reads(); k++) {
        long block = job.block(job.readIndex(k));
        if (!read.add(block)) {
          reread.add(block);
        }
      }
    }
    return reread.size();
  }

  private static void print(List<Run> runs, List<Run> bounds, List<Double> shares,
      ReadOrder order, PrintStream out) {
    Set<Integer> samples = new TreeSet<>();
    runs.forEach(run -> samples.add(run.sample()));
    List<String> policies = runs.stream().map(Run::policy).distinct().toList();
    out.printf(Locale.ROOT, "Samples %s, each alone with an empty cache; a job's blocks read in"
        + " %s order; means in %% with 95 %% t intervals over the samples.%n", samples,
        order.option());
    for (double share : shares) {
      out.printf(Locale.ROOT, "%n#### Cache: %s of each sample's re-read working set%n%n",
          shareName(share));
      out.println("| policy | block hit ratio | job hit ratio | blocks written per block hit |"
          + " ns per event |");
      out.println("|---|---|---|---:|---:|");
      Map<String, List<Run>> byPolicy = new LinkedHashMap<>();
      for (String policy : policies) {
        byPolicy.put(policy, runs.stream().filter(r -> r.policy().equals(policy)
            && r.share() == share).toList());
      }
      byPolicy.forEach((policy, of) -> out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.0f |%n",
          policy, SimulatorRuns.percent(of, Run::blockHit),
          SimulatorRuns.percent(of, Run::jobHit), SimulatorRuns.mean(of, Run::writtenPerHit),
          SimulatorRuns.mean(of, Run::nsPerEvent)));
      List<Run> boundsHere = bounds.stream().filter(r -> r.share() == share).toList();
      out.printf(Locale.ROOT, "| upper bounds (blocks: Belady's MIN; jobs: JobBound) | %s | %s |"
          + " | |%n", SimulatorRuns.percent(boundsHere, Run::blockHit),
          SimulatorRuns.percent(boundsHere, Run::jobHit));
      out.printf(Locale.ROOT, "%nPaired per-sample differences against %s (points; above zero:"
          + " the policy is better):%n%n", policies.get(0));
      out.println("| policy | block hits | job hits |");
      out.println("|---|---|---|");
      Map<Integer, Run> first = new HashMap<>();
      byPolicy.get(policies.get(0)).forEach(r -> first.put(r.sample(), r));
      for (String policy : policies.subList(1, policies.size())) {
        List<Run> of = byPolicy.get(policy);
        out.printf(Locale.ROOT, "| %s | %s | %s |%n", policy,
            Interval.ofMean(of.stream().mapToDouble(r -> 100 * (r.blockHit()
                - first.get(r.sample()).blockHit())).toArray()).format("%+.1f"),
            Interval.ofMean(of.stream().mapToDouble(r -> 100 * (r.jobHit()
                - first.get(r.sample()).jobHit())).toArray()).format("%+.1f"));
      }
    }
  }

  /** A share as a fraction where it is one (1/16), else as a number. */
  static String shareName(double share) {
    double inverse = 1 / share;
    return inverse == Math.rint(inverse) && inverse > 1 ? "1/" + (long) inverse
        : String.format(Locale.ROOT, "%s", share);
  }
}
