package org.mpcache.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.replay.TraceReplay;
import org.mpcache.simulator.JobBound;
import org.mpcache.simulator.OfflineBound;
import org.mpcache.simulator.PolicySimulator;
import org.mpcache.simulator.ToolOptions;
import org.mpcache.simulator.Trace;
import org.mpcache.simulator.TraceJob;
import org.mpcache.simulator.TraceOptions;
import org.mpcache.slave.inputcache.CacheCounter;

/**
 * Replays one trace through the real DataNode read path for each policy (a fresh MiniDFSCluster
 * with the master in the NameNode each time, devices not emulated) and sets the replay's hit
 * ratios beside the simulator's on the identical trace and the offline bound. Writes
 * {@code replay.csv} and {@code replay.md} to the output dir; prints the csv's path last. Run with
 * {@code dev-support/replay-benchmark.sh}.
 */
public final class ReplayBenchmark {
  /** One policy's figures over the measured jobs. */
  private record Row(String policy, int jobs, long reads, long replayHits, long simHits,
      long replayJobHits, long simJobHits, long bytesFromSsd, long[] replayEvictions,
      long[] simEvictions, double minutes) {
  }

  private static final ToolOptions OPTIONS = TraceOptions.declare(
      new ToolOptions("dev-support/replay-benchmark.sh [options]"), 1024)
      .valued("jobs", "N", "1000", "jobs measured")
      .valued("warmup", "N", "100", "jobs before them, not measured")
      .valued("policies", "LIST", String.join(",", ReplacementPolicies.POLICIES), "policies "
          + "to replay, comma-separated")
      .valued("block-kb", "KB", "64", "block size replayed")
      .valued("readers-per-node", "N", "0", "reader threads a node")
      .valued("out", "DIR", "target/bench/replay", "where replay.csv, replay.md and the trace "
          + "replayed go");

  public static void main(String[] args) throws Exception {
    ToolOptions.Values given = OPTIONS.parse(args);
    int jobs = Integer.parseInt(given.value("jobs"));
    int warmup = Integer.parseInt(given.value("warmup"));
    List<String> policies = Arrays.asList(given.value("policies").split(","));
    PolicySimulator.Settings settings = TraceOptions.settings(given, warmup + jobs, 0);
    int blockBytes = Integer.parseInt(given.value("block-kb")) << 10;
    int readers = Integer.parseInt(given.value("readers-per-node"));
    Path out = Path.of(given.value("out"));
    Files.createDirectories(out);
    Trace trace = TraceOptions.trace(given, settings, System.out);
    TraceReplay.requireWholeReads(trace);
    trace.write(out.resolve("trace.txt")); // what was replayed, to replay again with --trace
    int measuredFrom = Math.min(warmup, trace.jobs());
    PolicySimulator.Settings used = trace.settings();
    System.out.printf(Locale.ROOT, "trace: %d jobs (%d warm-up), %d nodes, %d cache blocks a node,"
            + " %d MB blocks replayed as %d KB, %d reader threads a node%n", trace.jobs(),
        measuredFrom, used.nodes(), used.cacheBlocksPerNode(), used.blockMb(), blockBytes >> 10,
        readers);

    List<Row> rows = new ArrayList<>();
    PolicySimulator.Result blockBound = OfflineBound.run(trace, measuredFrom);
    double jobBound = (double) JobBound.jobHits(trace, measuredFrom) / blockBound.jobs();
    for (String policy : policies) {
      rows.add(run(trace, policy, measuredFrom, blockBytes, readers));
      write(out, rows, blockBound.blockHitRatio(), jobBound, trace, measuredFrom);
    }
    System.out.println(Files.readString(out.resolve("replay.md")));
    System.out.println(out.resolve("replay.csv").toAbsolutePath());
  }

  private static Row run(Trace trace, String policy, int measuredFrom, int blockBytes,
      int readers) throws Exception {
    boolean[][] simHits = new boolean[trace.jobs()][];
    long[] firstBlocks = new long[trace.jobs()];
    int index = 0;
    for (TraceJob job : trace) {
      simHits[index] = new boolean[job.dataSet().blocks()];
      firstBlocks[index++] = job.firstBlock();
    }
    PolicySimulator.Result whole = PolicySimulator.run(trace, ReplacementPolicies.create(policy,
            MpCachePolicy.DEFAULT_FULL_BONUS, AdmissionControl.BACK_TO_BACK_DISTANCE),
        (job, block, node, decision) ->
            simHits[job][(int) (block - firstBlocks[job])] = decision.hit());
    long start = System.nanoTime();
    long reads = 0;
    long replayHits = 0;
    long simHitCount = 0;
    long replayJobHits = 0;
    long simJobHits = 0;
    long bytesFromSsd = 0;
    try (TraceReplay replay = new TraceReplay(trace, policy, blockBytes, readers,
        "replay-" + policy)) {
      System.out.printf(Locale.ROOT, "%s: cluster up and blocks written in %.0f s%n", policy,
          (System.nanoTime() - start) / 1e9);
      start = System.nanoTime();
      int j = 0;
      for (TraceJob job : trace) {
        TraceReplay.JobOutcome outcome = replay.replay(job);
        if (j >= measuredFrom) {
          int simJobHitBlocks = 0;
          for (boolean hit : simHits[j]) {
            simJobHitBlocks += hit ? 1 : 0;
          }
          reads += outcome.blocks();
          replayHits += outcome.hits();
          simHitCount += simJobHitBlocks;
          replayJobHits += outcome.allHit() ? 1 : 0;
          simJobHits += simJobHitBlocks == outcome.blocks() ? 1 : 0;
          bytesFromSsd += outcome.bytesFromSsd();
        }
        j++;
        if (j % 50 == 0) {
          System.out.printf(Locale.ROOT, "%s: %d/%d jobs, %.0f s%n", policy, j, trace.jobs(),
              (System.nanoTime() - start) / 1e9);
        }
      }
      StringBuilder slaves = new StringBuilder(policy + ": slaves over the whole trace:");
      for (CacheCounter counter : CacheCounter.values()) {
        long value = replay.slaveTotal(counter);
        if (value > 0) {
          slaves.append(' ').append(counter.metricName()).append(' ').append(value);
        }
      }
      System.out.println(slaves);
      return new Row(policy, trace.jobs() - measuredFrom, reads, replayHits, simHitCount,
          replayJobHits, simJobHits, bytesFromSsd, evictions(replay),
          new long[] {whole.evictedForRoom(), whole.evictedElsewhere(), whole.dataSetsEvicted()},
          (System.nanoTime() - start) / 60e9);
    }
  }

  private static final MasterCounter[] EVICTION_CAUSES = {MasterCounter.EVICTIONS_FOR_ROOM,
      MasterCounter.EVICTIONS_OF_DATA_SETS_ELSEWHERE, MasterCounter.DATA_SETS_EVICTED};

  /** The master's eviction counters over the whole trace, in {@link #EVICTION_CAUSES} order. */
  private static long[] evictions(TraceReplay replay) {
    long[] counts = new long[EVICTION_CAUSES.length];
    for (int c = 0; c < EVICTION_CAUSES.length; c++) {
      counts[c] = replay.masterCounter(EVICTION_CAUSES[c]);
    }
    return counts;
  }

  private static void write(Path out, List<Row> rows, double blockBound, double jobBound,
      Trace trace, int measuredFrom) throws IOException {
    try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("replay.csv"),
        StandardCharsets.UTF_8))) {
      csv.println("policy,jobs,block_hit_replay,block_hit_sim,job_hit_replay,job_hit_sim");
      for (Row r : rows) {
        csv.printf(Locale.ROOT, "%s,%d,%.4f,%.4f,%.4f,%.4f%n", r.policy(), r.jobs(),
            (double) r.replayHits() / r.reads(), (double) r.simHits() / r.reads(),
            (double) r.replayJobHits() / r.jobs(), (double) r.simJobHits() / r.jobs());
      }
    }
    PolicySimulator.Settings s = trace.settings();
    try (PrintWriter md = new PrintWriter(Files.newBufferedWriter(out.resolve("replay.md"),
        StandardCharsets.UTF_8))) {
      md.printf(Locale.ROOT, "Trace: %d nodes, %d tenants, s = %s, %d GB of cache a node in %d MB"
              + " blocks (%d a node), seed %d; %d jobs after %d warm-up jobs. Devices not"
              + " emulated.%n%n", s.nodes(), s.tenants(), s.zipfS(), s.cacheMbPerNode() / 1024,
          s.blockMb(), s.cacheBlocksPerNode(), s.seed(), trace.jobs() - measuredFrom,
          measuredFrom);
      md.println("| policy | block hits: replay / simulator | job hits: replay / simulator |"
          + " job hits apart (points) | bytes from SSD | whole trace, replay (simulator): copies"
          + " evicted for room / of data sets elsewhere | data sets evicted | minutes |");
      md.println("|---|---|---|---|---|---|---|---|");
      for (Row r : rows) {
        double replayJob = 100.0 * r.replayJobHits() / r.jobs();
        double simJob = 100.0 * r.simJobHits() / r.jobs();
        md.printf(Locale.ROOT, "| %s | %.1f %% / %.1f %% | %.1f %% / %.1f %% | %.1f | %d MB |"
                + " %d / %d (%d / %d) | %d (%d) | %.1f |%n", r.policy(),
            100.0 * r.replayHits() / r.reads(), 100.0 * r.simHits() / r.reads(), replayJob,
            simJob, Math.abs(replayJob - simJob), r.bytesFromSsd() >> 20,
            r.replayEvictions()[0], r.replayEvictions()[1], r.simEvictions()[0],
            r.simEvictions()[1], r.replayEvictions()[2], r.simEvictions()[2], r.minutes());
      }
      md.printf(Locale.ROOT, "| upper bounds (blocks: Belady's MIN; jobs: JobBound) |"
          + " %.1f %% | %.1f %% | | | | | |%n", 100 * blockBound, 100 * jobBound);
    }
  }
}
