package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.bench.device.DeviceProfile;
import org.mpcache.bench.device.IoCause;
import org.mpcache.bench.harness.JobPairs.Stratum;
import org.mpcache.bench.harness.Report.Gate;
import org.mpcache.bench.harness.Report.Target;
import org.mpcache.bench.harness.StreamSimulation.SimulatedJob;
import org.mpcache.bench.harness.Table.Style;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.simulator.Interval;

/**
 * Three seeds of four jobs under five configurations with known times. Even jobs are greps
 * (map only, 8 MB inputs), odd ones tera-sorts (half map, half reduce, 24 MB inputs); jobs 0 and
 * 1 read their inputs for the first time in the stream.
 */
class TestReport {
  private static final long MB = 1 << 20;
  private static final List<ClusterSetup> SETUPS = List.of(ClusterSetup.STOCK,
      ClusterSetup.ALL_SSD, ClusterSetup.MPCACHE, ClusterSetup.MEMORY, ClusterSetup.MPCACHE_COLD);
  private static final HarnessOptions OPTIONS = new HarnessOptions(3, 8 * MB, 24, 4, 1.0, 4,
      8 * MB, List.of(1L, 2L, 3L), SETUPS, DeviceProfile.parse("0.5MB/s,40ms,256KB"),
      DeviceProfile.parse("4MB/s,0.5ms,256KB"), 0.5, 0.15, 0.5, new File("work"), null, 2, true,
      List.of(), true, null);
  private static final Map<Long, Long> WORKING_SETS = Map.of(1L, 300 * MB, 2L, 240 * MB,
      3L, 360 * MB);

  /** mpCache's times per seed: every seed sums to 100 s, the jobs vary a lot. */
  private static final double[][] MPCACHE_SECONDS = {
      {16, 34, 16, 34}, {18, 32, 18, 32}, {20, 30, 20, 30}};
  /** The in-memory cache's times in every seed: 200 s a seed, little spread. */
  private static final double[] MEMORY_SECONDS = {50, 52, 48, 50};

  private static double seconds(ClusterSetup setup, long seed, int index) {
    return switch (setup) {
      case STOCK -> 60;
      case ALL_SSD -> 20;
      case MPCACHE -> MPCACHE_SECONDS[(int) seed - 1][index];
      case MEMORY -> MEMORY_SECONDS[index];
      case MPCACHE_COLD -> index < 2 ? 61 : 30;
      default -> throw new IllegalArgumentException(setup.label());
    };
  }

  private static double hitRatio(ClusterSetup setup, int index) {
    return switch (setup) {
      case MPCACHE -> index == 0 ? 1.0 : index == 2 ? 0.8 : 0.5;
      case MEMORY -> 0.2;
      case MPCACHE_COLD -> index % 2 == 0 ? 0.3 : 0.1;
      default -> Double.NaN;
    };
  }

  private static JobResult job(ClusterSetup setup, long seed, int index) {
    double seconds = seconds(setup, seed, index);
    boolean grep = index % 2 == 0;
    return new JobResult(setup, seed, index, grep ? "grep" : "tera-sort", "in/k" + index,
        grep ? 8 * MB : 24 * MB, seconds, grep ? seconds : seconds / 2, grep ? 0 : seconds / 2,
        hitRatio(setup, index), 0.7, 0.9, 0.9, 0.5, 1.0,
        setup.mpCache() ? 0.75 : Double.NaN, grep ? 0 : 24 * MB,
        setup.localized() ? 0.5 : Double.NaN, index < 2, true, hddSeconds(setup), List.of(), "");
  }

  /** Stock's HDDs busy with input reads; mpCache's with half of them; memory not measured. */
  private static List<Double> hddSeconds(ClusterSetup setup) {
    double reads = setup == ClusterSetup.MPCACHE ? 5 : 10;
    return setup == ClusterSetup.MEMORY ? JobResult.NOT_MEASURED
        : Arrays.stream(IoCause.values()).map(cause -> cause == IoCause.HDFS_READ ? reads
            : cause == IoCause.HDFS_WRITE ? 2.0 : 0.0).toList();
  }

  private static List<JobResult> results() {
    List<JobResult> results = new ArrayList<>();
    for (long seed = 1; seed <= 3; seed++) {
      for (int index = 0; index < 4; index++) {
        for (ClusterSetup setup : SETUPS) {
          results.add(job(setup, seed, index));
        }
      }
    }
    return results;
  }

  /** The results with each job of {@code setup} replaced by what {@code change} makes of it. */
  private static List<JobResult> changed(List<JobResult> results, ClusterSetup setup,
      UnaryOperator<JobResult> change) {
    return results.stream().map(job -> job.setup() == setup ? change.apply(job) : job)
        .collect(Collectors.toCollection(ArrayList::new));
  }

  private static JobResult withHddAndCpu(JobResult j, double busiestHddInMaps,
      double cpuUtilization, boolean outputChecked) {
    return rebuilt(j, busiestHddInMaps, cpuUtilization, outputChecked, j.hddSecondsByCause());
  }

  private static JobResult rebuilt(JobResult j, double busiestHddInMaps, double cpuUtilization,
      boolean outputChecked, List<Double> hddSecondsByCause) {
    return new JobResult(j.setup(), j.seed(), j.index(), j.benchmark(), j.input(),
        j.inputBytes(), j.seconds(), j.mapSeconds(), j.reduceSeconds(), j.hitRatio(),
        j.hddUtilization(), j.busiestHdd(), busiestHddInMaps, cpuUtilization,
        j.dataLocalMaps(), j.cacheLocalMaps(), j.shuffleBytes(), j.localizedOnSsd(),
        j.firstRead(), outputChecked, hddSecondsByCause, j.leastInputRoomBytes(), j.sitting());
  }

  /** The job as it runs on a day when everything takes {@code factor} times as long. */
  private static JobResult slower(JobResult j, double factor) {
    return new JobResult(j.setup(), j.seed(), j.index(), j.benchmark(), j.input(),
        j.inputBytes(), factor * j.seconds(), factor * j.mapSeconds(),
        factor * j.reduceSeconds(), j.hitRatio(), j.hddUtilization(), j.busiestHdd(),
        j.busiestHddInMaps(), j.cpuUtilization(), j.dataLocalMaps(), j.cacheLocalMaps(),
        j.shuffleBytes(), j.localizedOnSsd(), j.firstRead(), j.outputChecked(),
        j.hddSecondsByCause(), j.leastInputRoomBytes(), j.sitting());
  }

  private static Report report(List<JobResult> results) {
    return new Report(OPTIONS, WORKING_SETS, Map.of(), results);
  }

  private static double geometricMeanOfRatios(ClusterSetup setup, int... indexes) {
    double logs = 0;
    int n = 0;
    for (long seed = 1; seed <= 3; seed++) {
      for (int index : indexes) {
        logs += Math.log(60 / seconds(setup, seed, index));
        n++;
      }
    }
    return Math.exp(logs / n);
  }

  private static void assertInside(Interval interval) {
    assertTrue(interval.low() < interval.estimate() && interval.estimate() < interval.high(),
        interval.toString());
  }

  @Test
  void throughputIsTheRatioOfSummedTimesAndTheGeometricMeanThatOfTheJobRatios() {
    Report report = report(results());
    Comparison mpcache = report.comparison(ClusterSetup.MPCACHE);
    assertEquals(720.0 / 300, mpcache.throughput().estimate(), 1e-12);
    assertEquals(12, mpcache.throughput().n());
    assertEquals(geometricMeanOfRatios(ClusterSetup.MPCACHE, 0, 1, 2, 3),
        mpcache.geometricMean().estimate(), 1e-12);
    assertEquals(720.0 / 600, report.comparison(ClusterSetup.MEMORY).throughput().estimate(),
        1e-12);
    assertInside(mpcache.throughput());
    assertInside(mpcache.geometricMean());
    assertInside(report.comparison(ClusterSetup.MEMORY).throughput());
    assertNull(report.comparison(ClusterSetup.STOCK), "the baseline is not compared with itself");
  }

  @Test
  void constantRatiosHaveAnIntervalOfNoWidth() {
    Comparison allSsd = report(results()).comparison(ClusterSetup.ALL_SSD);
    assertEquals(new Interval(3, 3, 3, 12), allSsd.throughput());
    assertEquals(new Interval(3, 3, 3, 3), allSsd.overStreams(), "the same ratio in each seed");
    assertEquals(3, allSsd.geometricMean().low(), 1e-12);
    assertEquals(3, allSsd.geometricMean().high(), 1e-12);
  }

  @Test
  void halfWidthGateTellsTightRatiosFromOnesThatNeedMoreJobs() {
    String summary = report(results()).summaryMarkdown();
    // the in-memory cache's times barely vary: both intervals are tight
    List<String> memory = cells(line(summary, "| memory "));
    assertEquals(List.of("pass", "pass"), List.of(memory.get(3), memory.get(7)), memory::toString);
    // mpCache's job times vary from 16 to 34 s: 12 jobs do not pin the ratio to ±10 %
    List<String> mpcache = cells(line(summary, "| mpcache "));
    assertEquals(List.of("fail: more jobs needed", "fail: more jobs needed"),
        List.of(mpcache.get(3), mpcache.get(7)), mpcache::toString);
    assertTrue(mpcache.get(2).startsWith("2.40× ("), mpcache::toString);
    assertEquals("3", mpcache.get(5), "over streams: one a seed");
  }

  /** A job that shuffles much weighs as much as it shuffles in "by bytes", once in the mean. */
  @Test
  void localizedDataOnSsdIsReportedAsAMeanOverJobsAndWeightedByBytes() {
    String summary = report(changed(results(), ClusterSetup.MPCACHE,
        job -> withLocalizedOnSsd(job, job.shuffleBytes() == 0 ? 1.0 : 0.2))).summaryMarkdown();
    List<String> lines = summary.lines().toList();
    int header = 0;
    while (!lines.get(header).contains("| busiest HDD in maps |")) {
      header++;
    }
    List<String> columns = cells(lines.get(header));
    List<String> mpcache = lines.subList(header + 2, lines.size()).stream()
        .takeWhile(l -> l.startsWith("|")).filter(l -> l.startsWith("| mpcache ")).findFirst()
        .map(TestReport::cells).orElseThrow();
    assertEquals("60 %", mpcache.get(columns.indexOf("localized on SSD")), mpcache::toString);
    assertEquals("20 %", mpcache.get(columns.indexOf("by bytes")), mpcache::toString);
  }

  private static JobResult withLocalizedOnSsd(JobResult j, double share) {
    return new JobResult(j.setup(), j.seed(), j.index(), j.benchmark(), j.input(),
        j.inputBytes(), j.seconds(), j.mapSeconds(), j.reduceSeconds(), j.hitRatio(),
        j.hddUtilization(), j.busiestHdd(), j.busiestHddInMaps(), j.cpuUtilization(),
        j.dataLocalMaps(), j.cacheLocalMaps(), j.shuffleBytes(), share, j.firstRead(),
        j.outputChecked(), j.hddSecondsByCause(), j.leastInputRoomBytes(), j.sitting());
  }

  @Test
  void theFirstTableOfTheSummaryIsTheRatiosWithTheirIntervals() {
    String summary = report(results()).summaryMarkdown();
    String[] lines = summary.split("\n");
    int header = 0;
    while (!lines[header].startsWith("|")) {
      header++;
    }
    assertTrue(lines[header].contains("throughput ratio (95 % CI)"), lines[header]);
    assertEquals(List.of("stock", "12", "baseline", "", "", "", "", ""), cells(lines[header + 2]));
    // columns are padded: every line of the table is as long as its header
    for (int i = header; i < header + 2 + SETUPS.size(); i++) {
      assertEquals(lines[header].length(), lines[i].length(), lines[i]);
    }
  }

  @Test
  void phaseRatiosCountReducePhasesOnlyWhereTheBaselineHadOne() {
    Comparison mpcache = report(results()).comparison(ClusterSetup.MPCACHE);
    // map phases: greps wholly, tera-sorts half; stock 3 × (60 + 30 + 60 + 30) s
    assertEquals(540.0 / (66 + 68 + 70), mpcache.mapPhase().estimate(), 1e-12);
    // reduce phases: the tera-sorts only
    assertEquals(180.0 / (34 + 32 + 30), mpcache.reducePhase().estimate(), 1e-12);
    assertEquals(6, mpcache.reducePhase().n());
  }

  @Test
  void perSeedAndPerBenchmarkRatios() {
    Comparison mpcache = report(results()).comparison(ClusterSetup.MPCACHE);
    assertEquals(List.of(new Stratum(1, ""), new Stratum(2, ""), new Stratum(3, "")),
        List.copyOf(mpcache.throughputByStratum().keySet()));
    mpcache.throughputByStratum().values()
        .forEach(seed -> assertEquals(240.0 / 100, seed.estimate(), 1e-12));
    Interval grep = mpcache.byBenchmark().get("grep");
    assertEquals(geometricMeanOfRatios(ClusterSetup.MPCACHE, 0, 2), grep.estimate(), 1e-12);
    assertEquals(6, grep.n());
    assertInside(grep);
  }

  @Test
  void hitRatiosAreWeightedByInputBytes() {
    String summary = report(results()).summaryMarkdown();
    // mpCache: (8 MB × 90 % + 24 MB × 50 %) / 32 MB in every seed
    assertEquals(List.of("mpcache", "60 %", "60 %", "60 %", "60 %"),
        cells(line(summary, "| mpcache ", "60 %")));
    assertEquals(List.of("stock", "—", "—", "—", "—"),
        cells(line(summary, "| stock ", "—")));
  }

  @Test
  void targetsGiveTheMeasuredRatioItsIntervalAndWhetherTheyAreMet() {
    Map<String, Target> targets = report(results()).targets().stream()
        .collect(Collectors.toMap(Target::name, t -> t));
    assertEquals(4, targets.size(), targets.toString());
    Target overStock = targets.get("mpcache over stock");
    assertEquals(2.4, overStock.measured().estimate(), 1e-12);
    assertFalse(overStock.met());
    Target overMemory = targets.get("mpcache over memory (ratio of their throughput ratios)");
    assertEquals(2.0, overMemory.measured().estimate(), 1e-12);
    assertTrue(overMemory.met());
    Target allSsd = targets.get("mpcache within 10 % of all-ssd (ratio of their throughput "
        + "ratios)");
    assertEquals(0.8, allSsd.measured().estimate(), 1e-12);
    assertFalse(allSsd.met());
    // first reads only: jobs 0 and 1 of each seed, 60 s on stock and 61 s cold
    Target cold = targets.get("cold pass: mpcache-cold over stock on first reads (≤ 2 % "
        + "slower)");
    assertEquals(60.0 / 61, cold.measured().estimate(), 1e-12);
    assertEquals(6, cold.measured().n());
    assertTrue(cold.met());
    String summary = report(results()).summaryMarkdown();
    // 2.5× lies inside mpCache's interval; every first read took 61 s against 60 s
    assertEquals("not met (the interval straddles the goal)",
        cells(line(summary, "| mpcache over stock")).get(3));
    assertEquals("met", cells(line(summary, "| cold pass")).get(3));
  }

  @Test
  void targetsNeedBothConfigurations() {
    List<JobResult> withoutMemory = results().stream()
        .filter(job -> job.setup() != ClusterSetup.MEMORY).toList();
    assertTrue(report(withoutMemory).targets().stream()
        .noneMatch(target -> target.name().contains("memory")));
  }

  /**
   * Two sittings: "a" ran stock, all-ssd, mpCache and mpcache-cold as {@link #results()}; "b",
   * on a day when everything took half as long again, stock and the in-memory cache. Paired
   * within sittings, memory keeps its 1.2× and mpCache over memory its 2.0×; paired across them,
   * memory would be at 0.8×.
   */
  @Test
  void mergedSittingsPairEachConfigurationWithItsOwnSittingsBaseline() {
    List<JobResult> merged = new ArrayList<>();
    for (JobResult job : results()) {
      if (job.setup() != ClusterSetup.MEMORY) {
        merged.add(job.inSitting("a"));
      }
      if (job.setup() == ClusterSetup.STOCK || job.setup() == ClusterSetup.MEMORY) {
        merged.add(slower(job, 1.5).inSitting("b"));
      }
    }
    Report report = report(merged);
    assertEquals(1.2, report.comparison(ClusterSetup.MEMORY).throughput().estimate(), 1e-12);
    assertEquals(2.4, report.comparison(ClusterSetup.MPCACHE).throughput().estimate(), 1e-12);
    Map<String, Target> targets = report.targets().stream()
        .collect(Collectors.toMap(Target::name, t -> t));
    Target overMemory = targets.get("mpcache over memory (ratio of their throughput ratios), "
        + "each over its own sitting's stock");
    assertEquals(2.0, overMemory.measured().estimate(), 1e-12);
    assertEquals(12, overMemory.measured().n());
    assertInside(overMemory.measured());
    assertEquals(0.8, targets.get("mpcache within 10 % of all-ssd (ratio of their throughput "
        + "ratios)").measured().estimate(), 1e-12, "run in one sitting: paired directly");
    List<Gate> gates = report.gates();
    gates.forEach(gate -> assertEquals(Style.PASS, gate.verdict(), gate.toString()));
    assertEquals("complete: 12 jobs over 3 seeds in each of 5 configurations, each paired with "
        + "stock's of its sitting (2 sittings)", gates.get(3).measured());
    String summary = report.summaryMarkdown();
    assertEquals(List.of("stock", "12", "baseline", "", "", "", "", ""), cells(line(summary, "| stock ")),
        "the stream's jobs, once each");
    List<String> seeds = cells(line(summary, "| memory ", "—"));
    assertEquals("—", seeds.get(1), "memory did not run in sitting a: " + seeds);
    assertTrue(seeds.get(2).startsWith("1.20×"), seeds::toString);
    assertTrue(line(summary, "| configuration ", "seed 1 (a) |").contains(" seed 1 (b) |"),
        summary);
    assertTrue(summary.contains("Merged from the results folders of several sittings (--merge):"
        + " a, b."), summary);
  }

  /**
   * Memory ran seeds 1 and 2 only, in the sittings of mpCache's: "mpcache over memory" pairs the
   * two directly over those seeds, as in a single folder.
   */
  @Test
  void aTargetPairsDirectlyOverTheJobsBothRanInOneSitting() {
    List<JobResult> results = new ArrayList<>(results());
    results.removeIf(job -> job.setup() == ClusterSetup.MEMORY && job.seed() == 3);
    Target overMemory = report(results).targets().stream()
        .filter(target -> target.name().contains("memory")).findFirst().orElseThrow();
    assertEquals("mpcache over memory (ratio of their throughput ratios)", overMemory.name());
    assertEquals(400.0 / 200, overMemory.measured().estimate(), 1e-12);
    assertEquals(8, overMemory.measured().n());
  }

  /**
   * Merged sittings where memory ran seed 1 in mpCache's sitting and seed 2 in another (a slower
   * day), seed 3 nowhere: the ratio of their throughput ratios over seeds 1 and 2, each over its
   * own sitting's stock.
   */
  @Test
  void aTargetAcrossSittingsIsTheQuotientOverTheJobsBothRan() {
    List<JobResult> merged = new ArrayList<>();
    for (JobResult job : results()) {
      if (job.setup() != ClusterSetup.MEMORY) {
        merged.add(job.inSitting("a"));
      } else if (job.seed() == 1) {
        merged.add(job.inSitting("a"));
      }
      if (job.seed() == 2 && (job.setup() == ClusterSetup.STOCK
          || job.setup() == ClusterSetup.MEMORY)) {
        merged.add(slower(job, 1.5).inSitting("b"));
      }
    }
    List<JobResult> counted = MergedSittings.countedOnce(merged, ClusterSetup.STOCK).jobs();
    Target overMemory = report(counted).targets().stream()
        .filter(target -> target.name().contains("memory")).findFirst().orElseThrow();
    assertEquals("mpcache over memory (ratio of their throughput ratios), each over its own "
        + "sitting's stock", overMemory.name());
    // mpCache over stock on seeds 1-2: 480 / 200; memory: 240 / 200 in a, 360 / 300 in b
    assertEquals((480.0 / 200) / (600.0 / 500), overMemory.measured().estimate(), 1e-12);
    assertEquals(8, overMemory.measured().n());
  }

  @Test
  void gatesPassForACompleteIoBoundCheckedRun() {
    List<Gate> gates = report(results()).gates();
    assertEquals(4, gates.size());
    gates.forEach(gate -> assertEquals(Style.PASS, gate.verdict(), gate.toString()));
    assertEquals("90 %", gates.get(0).measured());
    assertEquals("Validity gates: all 4 passed.", report(results()).gateVerdict());
  }

  @Test
  void gatesFailAndSayWhy() {
    List<JobResult> results = changed(results(), ClusterSetup.STOCK,
        j -> withHddAndCpu(j, 0.5, j.cpuUtilization(), true));
    results = changed(results, ClusterSetup.MEMORY, j -> withHddAndCpu(j, j.busiestHddInMaps(),
        0.9, true));
    results = changed(results, ClusterSetup.MPCACHE, j -> withHddAndCpu(j, j.busiestHddInMaps(),
        j.cpuUtilization(), !(j.seed() == 2 && j.index() == 1)));
    results.removeIf(j -> j.setup() == ClusterSetup.MPCACHE && j.seed() == 2 && j.index() == 3);
    List<Gate> gates = report(results).gates();
    gates.forEach(gate -> assertEquals(Style.FAIL, gate.verdict(), gate.toString()));
    assertEquals("50 %", gates.get(0).measured());
    assertEquals("CPU-bound: memory 90 %", gates.get(1).measured());
    assertEquals("1 of 59 jobs not checked: mpcache seed 2: job 1", gates.get(2).measured());
    assertEquals("mpcache seed 2: job 3 missing", gates.get(3).measured());
    List<String> verdict = report(results).gateVerdict().lines().toList();
    assertEquals(5, verdict.size(), verdict::toString);
    assertTrue(verdict.get(0).startsWith("VALIDITY GATES FAILED, 4 of 4: "), verdict.get(0));
    assertTrue(verdict.get(1).startsWith("- baseline I/O-bound: asked stock's busiest emulated "
        + "HDD ≥ 70 % busy in map phases (map-time weighted); measured 50 %. The baseline, stock, waited"),
        verdict.get(1));
    assertTrue(verdict.get(2).contains("measured CPU-bound: memory 90 %. "), verdict.get(2));
    // the missing job is left out of the pairs, not counted as a zero
    Comparison mpcache = report(results).comparison(ClusterSetup.MPCACHE);
    assertEquals(11, mpcache.throughput().n());
    assertEquals(660.0 / 268, mpcache.throughput().estimate(), 1e-12);
  }

  @Test
  void withoutEmulatedDevicesTheIoGateIsNotMeasured() {
    Gate io = report(changed(results(), ClusterSetup.STOCK,
        j -> withHddAndCpu(j, Double.NaN, j.cpuUtilization(), true))).gates().get(0);
    assertEquals(Style.NOT_MEASURED, io.verdict());
    Report unmeasured = report(changed(results(), ClusterSetup.STOCK,
        j -> withHddAndCpu(j, Double.NaN, j.cpuUtilization(), true)));
    assertTrue(unmeasured.summaryMarkdown().contains("| not measured |"));
    assertEquals("Validity gates: none failed; not measured: baseline I/O-bound.",
        unmeasured.gateVerdict());
  }

  @Test
  void theSettingSaysTheDevicesWereEmulatedAndGivesTheSizesPerSeed() {
    String summary = report(results()).summaryMarkdown();
    assertTrue(summary.contains("**Devices were emulated**"), summary);
    assertTrue(summary.contains("seed 2: working set 240 MB, SSD cache 40 MB per node"),
        summary);
    assertTrue(summary.contains("24 jobs whose reads warm the caches (untimed), then 4 timed"),
        summary);
    assertTrue(summary.contains("seeds 1, 2, 3"), summary);
    assertEquals(List.of("mpcache-cold", ClusterSetup.MPCACHE_COLD.description()),
        cells(line(summary, "| mpcache-cold ", "warm-up")));
  }

  @Test
  void writesTheJobsTheSummaryAndTheChartsData(@TempDir Path dir) throws Exception {
    report(results()).write(dir.toFile());
    List<String> csv = Files.readAllLines(dir.resolve("jobs.csv"));
    assertEquals(JobResult.CSV_HEADER, csv.get(0));
    assertEquals(1 + results().size(), csv.size());
    assertEquals(results().get(7), JobResult.parse(csv.get(8)));
    String summary = Files.readString(dir.resolve("summary.md"));
    assertTrue(summary.startsWith("# PUMA job streams"));
    for (String section : List.of("Throughput against stock", "Targets", "Validity gates",
        "Throughput ratio per seed", "Map and reduce phases", "Cache hit ratios",
        "The cache against its specification", "Devices, CPU and locality",
        "Where the HDDs' time went", "Per benchmark", "Setting")) {
      assertTrue(summary.contains("\n## " + section + "\n"), section);
    }
    try (var files = Files.list(dir)) {
      assertEquals(List.of("chart-benchmarks.csv", "chart-hits.csv", "chart-phases.csv",
          "chart-ratios.csv", "jobs.csv", "summary.md"),
          files.map(file -> file.getFileName().toString()).sorted().toList());
    }
    for (String chart : List.of("chart-benchmarks.csv", "chart-hits.csv", "chart-phases.csv",
        "chart-ratios.csv")) {
      assertTrue(summary.contains("Chart: `" + chart + "`"), chart);
    }

    // throughput and geometric mean, with their intervals, for each configuration but the
    // baseline
    List<String> ratios = Files.readAllLines(dir.resolve("chart-ratios.csv"));
    assertEquals("configuration,throughput ratio,throughput ratio 95 % low,"
        + "throughput ratio 95 % high,geometric mean of job ratios,"
        + "geometric mean of job ratios 95 % low,geometric mean of job ratios 95 % high",
        ratios.get(0));
    assertEquals(SETUPS.subList(1, SETUPS.size()).stream().map(ClusterSetup::label).toList(),
        ratios.subList(1, ratios.size()).stream().map(line -> line.split(",")[0]).toList());
    String mpcache = ratios.stream().filter(line -> line.startsWith("mpcache,")).findFirst()
        .orElseThrow();
    Interval throughput = report(results()).comparison(ClusterSetup.MPCACHE).throughput();
    assertEquals(throughput.estimate(), Double.parseDouble(mpcache.split(",")[1]), 1e-4);
    assertEquals(throughput.low(), Double.parseDouble(mpcache.split(",")[2]), 1e-4);

    // a column (and its interval) per configuration but the baseline, a row per benchmark
    List<String> benchmarks = Files.readAllLines(dir.resolve("chart-benchmarks.csv"));
    assertEquals("benchmark,all-ssd,all-ssd 95 % low,all-ssd 95 % high,mpcache,"
        + "mpcache 95 % low,mpcache 95 % high,memory,memory 95 % low,memory 95 % high,"
        + "mpcache-cold,mpcache-cold 95 % low,mpcache-cold 95 % high", benchmarks.get(0));
    assertEquals(List.of("grep", "tera-sort"), benchmarks.subList(1, benchmarks.size()).stream()
        .map(line -> line.split(",")[0]).toList());

    // no row for the configurations without a cache
    assertEquals(List.of("configuration,hit ratio (%)", "mpcache", "memory", "mpcache-cold"),
        Files.readAllLines(dir.resolve("chart-hits.csv")).stream()
            .map(line -> line.startsWith("configuration") ? line : line.split(",")[0]).toList());
    // map and reduce side by side for every configuration, the baseline too
    List<String> phases = Files.readAllLines(dir.resolve("chart-phases.csv"));
    assertEquals("configuration,map phase (s),reduce phase (s)", phases.get(0));
    assertEquals(1 + SETUPS.size(), phases.size());
  }

  @Test
  void theHddsTimeIsSplitByCauseForTheConfigurationsThatMeasuredIt() {
    String summary = report(results()).summaryMarkdown();
    String section = summary.substring(summary.indexOf("## Where the HDDs' time went"));
    section = section.substring(0, section.indexOf("\n## ", 3));
    assertEquals(List.of("configuration", "jobs", "HDFS reads", "cache fill re-reads",
        "HDFS writes", "local reads", "local writes", "shuffle serving", "all"),
        cells(line(section, "| configuration ")));
    assertEquals(List.of("stock", "12", "10.0", "0.0", "2.0", "0.0", "0.0", "0.0", "12.0"),
        cells(line(section, "| stock ")));
    assertEquals(List.of("mpcache", "12", "5.0", "0.0", "2.0", "0.0", "0.0", "0.0", "7.0"),
        cells(line(section, "| mpcache ")));
    assertFalse(section.contains("| memory "), "memory's runs did not measure it");

    String unmeasured = report(results().stream()
        .map(j -> rebuilt(j, j.busiestHddInMaps(), j.cpuUtilization(), j.outputChecked(),
            JobResult.NOT_MEASURED)).toList()).summaryMarkdown();
    assertTrue(unmeasured.contains("Not measured: the devices were not emulated"), unmeasured);
  }

  @Test
  void theRunStandsBesideWhatItsPolicyServesInTheSimulator() {
    // Seed 1's greps have 2 blocks, its tera-sorts 3; the run hits jobs 0-3 by 100, 50, 80
    // and 50 % of their bytes.
    List<SimulatedJob> spec = List.of(new SimulatedJob(2, 2), new SimulatedJob(3, 0),
        new SimulatedJob(2, 2), new SimulatedJob(3, 3));
    String summary = new Report(OPTIONS, WORKING_SETS,
        Map.of(ClusterSetup.MPCACHE, Map.of(1L, spec)), results()).summaryMarkdown();
    int start = summary.indexOf("## The cache against its spec");
    String section = summary.substring(start, summary.indexOf("\n## ", start));
    assertEquals(List.of("mpcache", "1", ReplacementPolicies.DEFAULT, "66 %", "70 %", "25 %",
        "75 %", "2, 3", "none"), cells(line(section, "| mpcache ")));
    assertFalse(section.contains("| mpcache-cold "), "no simulation given for it");

    String without = report(results()).summaryMarkdown();
    assertTrue(without.contains("No warm mpCache configuration ran on an embedded cluster."),
        without);
  }

  private static String line(String text, String start, String... containing) {
    return text.lines().filter(l -> l.startsWith(start))
        .filter(l -> List.of(containing).stream().allMatch(l::contains)).findFirst()
        .orElseThrow(() -> new AssertionError("no line " + start + " in\n" + text));
  }

  /** The trimmed cells of a line of a Markdown table. */
  private static List<String> cells(String line) {
    return List.of(line.substring(1, line.length() - 1).split("\\|", -1)).stream()
        .map(String::trim).toList();
  }

}
