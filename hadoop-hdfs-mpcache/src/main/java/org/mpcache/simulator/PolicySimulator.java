package org.mpcache.simulator;

import static org.mpcache.tools.CommandLine.option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy;

/**
 * Replays the PUMA job mix through the same policy classes the master runs and prints, per
 * policy, the block hit ratio and the job hit ratio (jobs whose whole input was cached).
 *
 * <p>Model: each map task reads one block on a node holding one of its three replicas; a node
 * that caches the block is preferred (cache-aware scheduling), otherwise a replica node is drawn
 * at random. A miss is cached on the node that read it if the policy admits it.
 */
public final class PolicySimulator {
  /** One policy's result. */
  public record Result(String policy, long blockAccesses, long blockHits, long jobs,
      long jobHits, double seconds) {
    public double blockHitRatio() {
      return (double) blockHits / blockAccesses;
    }

    public double jobHitRatio() {
      return (double) jobHits / jobs;
    }
  }

  /** The knobs, with the paper's setting as defaults (7 nodes, 80 GB of SSD cache each). */
  public record Settings(int nodes, int tenants, int jobs, double zipfS, long cacheMbPerNode,
      int blockMb, long seed) {
    public int cacheBlocksPerNode() {
      return (int) (cacheMbPerNode / blockMb);
    }
  }

  private PolicySimulator() {
  }

  public static Result run(Settings settings, ReplacementPolicy policy) {
    PumaWorkload workload = workload(settings);
    for (int node = 0; node < settings.nodes(); node++) {
      policy.setCapacity(node, settings.cacheBlocksPerNode());
    }
    PumaWorkload.JobStream jobs = workload.jobs();
    SplittableRandom placement = new SplittableRandom(settings.seed() + 1);
    int[] replicas = new int[PumaWorkload.REPLICATION];
    long accesses = 0;
    long hits = 0;
    long jobHits = 0;
    long start = System.nanoTime();
    for (int job = 0; job < settings.jobs(); job++) {
      DataSet dataSet = jobs.next();
      policy.dataSetAccessed(dataSet);
      long first = workload.firstBlock(dataSet);
      boolean allHit = true;
      for (long block = first; block < first + dataSet.blocks(); block++) {
        workload.replicas(block, replicas);
        int node = replicas[placement.nextInt(replicas.length)];
        for (int replica : replicas) {
          if (policy.isCached(replica, block)) {
            node = replica;
            break;
          }
        }
        CacheDecision decision = policy.access(node, block, dataSet);
        accesses++;
        if (decision.hit()) {
          hits++;
        } else {
          allHit = false;
        }
      }
      if (allHit) {
        jobHits++;
      }
    }
    return new Result(policy.name(), accesses, hits, settings.jobs(), jobHits,
        (System.nanoTime() - start) / 1e9);
  }

  static PumaWorkload workload(Settings settings) {
    return new PumaWorkload(settings.nodes(), settings.tenants(), settings.zipfS(),
        settings.blockMb(), settings.seed());
  }

  /** Every policy the master offers, with its default constants. */
  public static List<Supplier<ReplacementPolicy>> policies() {
    return ReplacementPolicies.NAMES.stream().<Supplier<ReplacementPolicy>>map(
        name -> () -> ReplacementPolicies.create(name, MpCachePolicy.DEFAULT_FULL_BONUS,
            AdmissionControl.BACK_TO_BACK_DISTANCE)).toList();
  }

  public static void main(String[] args) {
    int nodes = Integer.parseInt(option(args, "--nodes", "7"));
    Settings settings = new Settings(nodes,
        Integer.parseInt(option(args, "--tenants", Integer.toString(Math.max(1, nodes / 7)))),
        Integer.parseInt(option(args, "--jobs", "10000")),
        Double.parseDouble(option(args, "--s", "1")),
        Long.parseLong(option(args, "--cache-gb", "80")) * 1024,
        Integer.parseInt(option(args, "--block-mb", "128")),
        Long.parseLong(option(args, "--seed", "1")));
    List<Result> results = new ArrayList<>();
    for (Supplier<ReplacementPolicy> policy : policies()) {
      results.add(run(settings, policy.get()));
    }
    results.add(OfflineBound.run(settings));
    print(settings, results, System.out);
  }

  static void print(Settings settings, List<Result> results, PrintStream out) {
    PumaWorkload workload = workload(settings);
    long cacheBlocks = (long) settings.cacheBlocksPerNode() * settings.nodes();
    out.printf(Locale.ROOT, "%d nodes, %d tenants, %d jobs, s = %s, %d MB blocks, %d GB cache"
            + " per node; data %d blocks (one replica), cache %d blocks (%.1f %% of the data)%n%n",
        settings.nodes(), settings.tenants(), settings.jobs(), settings.zipfS(),
        settings.blockMb(), settings.cacheMbPerNode() / 1024, workload.totalBlocks(),
        cacheBlocks, 100.0 * cacheBlocks / workload.totalBlocks());
    out.println("| policy | block hit ratio | job hit ratio | block accesses | seconds |");
    out.println("|---|---|---|---|---|");
    for (Result r : results) {
      out.printf(Locale.ROOT, "| %s | %.1f %% | %.1f %% | %d | %.1f |%n", r.policy(),
          100 * r.blockHitRatio(), 100 * r.jobHitRatio(), r.blockAccesses(), r.seconds());
    }
  }
}
