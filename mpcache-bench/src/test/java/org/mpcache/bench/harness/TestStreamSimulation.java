package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.StreamSimulation.Figures;
import org.mpcache.bench.harness.StreamSimulation.SimulatedJob;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.puma.InputSource;
import org.mpcache.puma.PumaBenchmarks;

class TestStreamSimulation {
  private static final long MB = 1 << 20;
  private static final WorkloadMix MIX =
      new WorkloadMix(PumaBenchmarks.all(), 24, 30, 1.0, 4, 8 * MB, 1);

  @Test
  void everyPolicyStaysUnderTheOfflineBounds() {
    List<Figures> figures = new StreamSimulation(MIX, 3, 8 * MB, 30 * MB, 1.0, 1).figures();
    assertEquals(List.of(ReplacementPolicies.DEFAULT, "lfu", "lru", "offline bound"),
        figures.stream().map(Figures::name).toList());
    Figures bound = figures.get(figures.size() - 1);
    assertTrue(bound.blockHitRatio() < 1 && bound.jobHitRatio() < 1,
        "a quarter of the working set: " + bound);
    for (Figures policy : figures) {
      assertTrue(policy.blockHitRatio() <= bound.blockHitRatio()
          && policy.jobHitRatio() <= bound.jobHitRatio(), policy + " over " + bound);
    }
  }

  /**
   * With room for every block, a timed job hits whole when its input was read before: by an
   * earlier job, or by its own client (tera-sort's sampler) just before its tasks. Seeds 1-3,
   * whose streams hold both kinds.
   */
  @Test
  void aCacheHoldingTheWorkingSetHitsEveryTimedJobWhoseInputWasReadBefore() {
    int sampledFirst = 0;
    for (long seed = 1; seed <= 3; seed++) {
      WorkloadMix mix = new WorkloadMix(PumaBenchmarks.all(), 24, 30, 1.0, 4, 8 * MB, seed);
      Set<WorkloadMix.DataSet> read = new HashSet<>();
      mix.history().forEach(job -> read.add(job.input()));
      int again = 0;
      for (WorkloadMix.JobSpec job : mix.jobs()) {
        boolean first = read.add(job.input());
        boolean sampled = job.benchmark().splitsReadByClient(
            InputSource.files(job.input().bytes(), 8 * MB)) > 0;
        again += !first || sampled ? 1 : 0;
        sampledFirst += first && sampled ? 1 : 0;
      }
      // Each node can hold every block of the stream: LRU never evicts.
      Map<String, Figures> figures = new StreamSimulation(mix, 3, 8 * MB,
          mix.workingSetBytes(), 1.0, seed).figures().stream()
          .collect(Collectors.toMap(Figures::name, f -> f));
      double expected = again / (double) mix.jobs().size();
      assertEquals(expected, figures.get("lru").jobHitRatio(), 1e-9, "LRU, seed " + seed);
      assertEquals(expected, figures.get("offline bound").jobHitRatio(), 1e-9, "seed " + seed);
    }
    assertTrue(sampledFirst > 0, "the streams hold a tera-sort over an input not read before");
  }

  @Test
  void eachTimedJobReadsEveryBlockOfItsInputInTheStreamsOrder() {
    List<SimulatedJob> jobs = new StreamSimulation(MIX, 3, 8 * MB, 30 * MB, 1.0, 1)
        .timedJobs(ReplacementPolicies.DEFAULT, StreamSimulation.NOTHING_LENT);
    assertEquals(MIX.jobs().size(), jobs.size());
    for (WorkloadMix.JobSpec job : MIX.jobs()) {
      SimulatedJob simulated = jobs.get(job.index());
      assertEquals(InputSource.files(job.input().bytes(), 8 * MB), simulated.blocks(),
          "job " + job.index());
      assertTrue(simulated.hits() >= 0 && simulated.hits() <= simulated.blocks(),
          "job " + job.index() + ": " + simulated);
    }
  }

  /**
   * The decisions log heads each read of the stream with its job, in the stream's order, and
   * lists under it each block it missed, of its own data set, named by its index there, its
   * stream-wide file number and the node the placement puts it on: as many as the timed jobs'
   * figures count.
   */
  @Test
  void theDecisionsListEachJobsMissesUnderIt() {
    int nodes = 3;
    StreamSimulation simulation = new StreamSimulation(MIX, nodes, 8 * MB, 30 * MB, 1.0, 1);
    List<String> lines =
        simulation.decisions(ReplacementPolicies.DEFAULT, StreamSimulation.NOTHING_LENT);
    List<SimulatedJob> timed =
        simulation.timedJobs(ReplacementPolicies.DEFAULT, StreamSimulation.NOTHING_LENT);
    List<String> expectedHeaders = new ArrayList<>();
    for (WorkloadMix.JobSpec job : MIX.history()) {
      expectedHeaders.add("warm-up read " + (expectedHeaders.size() + 1) + "/"
          + MIX.history().size() + " of " + job.input().dir(BenchCluster.INPUTS));
    }
    for (WorkloadMix.JobSpec job : MIX.jobs()) {
      String name = "timed job " + job.index() + " (" + job.benchmark().name() + " on "
          + job.input().dir(BenchCluster.INPUTS) + ")";
      if (job.benchmark().splitsReadByClient(
          InputSource.files(job.input().bytes(), 8 * MB)) > 0) {
        expectedHeaders.add("the client's read before " + name);
      }
      expectedHeaders.add(name);
    }
    StreamPlacement placement = new StreamPlacement(MIX, 8 * MB);
    Map<String, WorkloadMix.DataSet> byDir = new HashMap<>();
    MIX.dataSets().forEach(d -> byDir.put(d.dir(BenchCluster.INPUTS).toString(), d));
    Pattern miss = Pattern.compile("  (\\S+) block (\\d+) \\(file (\\d+)\\) on node (\\d+): "
        + "(refused|admitted, evicting \\d+.*)");
    List<String> headers = new ArrayList<>();
    Map<Integer, Integer> timedMisses = new HashMap<>();
    int timedJob = -1;
    for (String line : lines) {
      if (!line.startsWith("  ")) {
        headers.add(line);
        timedJob = line.startsWith("timed job ")
            ? Integer.parseInt(line.split(" ")[2]) : -1;
        continue;
      }
      Matcher m = miss.matcher(line);
      assertTrue(m.matches(), "a miss: " + line);
      String header = headers.get(headers.size() - 1);
      assertTrue(header.endsWith(" of " + m.group(1)) || header.endsWith(" on " + m.group(1)
          + ")"), line + " under " + header);
      WorkloadMix.DataSet dataSet = byDir.get(m.group(1));
      int file = placement.firstFile(dataSet) + Integer.parseInt(m.group(2));
      assertEquals(file, Integer.parseInt(m.group(3)), line);
      assertEquals(placement.node(dataSet, Integer.parseInt(m.group(2)), nodes),
          Integer.parseInt(m.group(4)), line);
      if (timedJob >= 0) {
        timedMisses.merge(timedJob, 1, Integer::sum);
      }
    }
    assertEquals(expectedHeaders, headers);
    for (WorkloadMix.JobSpec job : MIX.jobs()) {
      SimulatedJob served = timed.get(job.index());
      assertEquals(served.blocks() - served.hits(),
          (int) timedMisses.getOrDefault(job.index(), 0), "misses of timed job " + job.index());
    }
    assertTrue(lines.stream().anyMatch(l -> l.endsWith(": refused"))
        && lines.stream().anyMatch(l -> l.matches(".*: admitted, evicting [1-9].*")),
        "a quarter of the working set refuses some blocks and evicts for others");
  }

  /**
   * A run that lent node 1 all but one block of its room during every timed job: the simulation
   * takes that room away after each timed job (not after the warm-up's reads), node 1 alone
   * evicts for it, through the policy, and the default serves fewer of the timed jobs' blocks
   * than with all its room; a job the run's figures do not list lends nothing.
   */
  @Test
  void roomTheRunLentLocalizedDataIsFreedAfterEachTimedJob() {
    StreamSimulation simulation = new StreamSimulation(MIX, 3, 8 * MB, 30 * MB, 1.0, 1);
    List<List<Long>> lent =
        Collections.nCopies(MIX.jobs().size(), List.of(30 * MB, 8 * MB, 30 * MB));
    String header = "";
    int shrinks = 0;
    for (String line : simulation.decisions(ReplacementPolicies.DEFAULT, lent)) {
      if (!line.startsWith("  ")) {
        header = line;
      } else if (line.startsWith("  room on node")) {
        assertTrue(line.matches("  room on node 1 lent to localized data: evicting [1-9].*"),
            line);
        assertTrue(header.startsWith("timed job "), line + " under " + header);
        shrinks++;
      }
    }
    assertTrue(shrinks > 0, "node 1 held more than a block after some timed job");
    assertTrue(hits(simulation.timedJobs(ReplacementPolicies.DEFAULT, lent))
        < hits(simulation.timedJobs(ReplacementPolicies.DEFAULT, StreamSimulation.NOTHING_LENT)));
    assertEquals(hits(simulation.timedJobs(ReplacementPolicies.DEFAULT, List.of(List.of()))),
        hits(simulation.timedJobs(ReplacementPolicies.DEFAULT, StreamSimulation.NOTHING_LENT)));
  }

  @Test
  void eachTimedJobsRoomIsTheFirstSittingsAndAJobNotSampledLendsNothing() {
    JobResult first = TestResultsFolder.job(ClusterSetup.MPCACHE, 1, 2);
    JobResult later = JobResult.parse(first.inSitting("later").csv()
        .replace("33554432;16777216;33554432", "8388608;8388608;8388608"));
    assertEquals(List.of(8L << 20, 8L << 20, 8L << 20), later.leastInputRoomBytes());
    assertEquals(List.of(List.of(), List.of(), first.leastInputRoomBytes()),
        StreamSimulation.leastInputRoom(List.of(first, later)));
    assertEquals(List.of(), StreamSimulation.leastInputRoom(List.of()));
  }

  private static int hits(List<SimulatedJob> jobs) {
    return jobs.stream().mapToInt(SimulatedJob::hits).sum();
  }
}
