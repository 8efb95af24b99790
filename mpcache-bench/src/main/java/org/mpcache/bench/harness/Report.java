package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.mpcache.bench.device.IoCause;
import org.mpcache.bench.harness.ChartData.Bar;
import org.mpcache.bench.harness.ChartData.Series;
import org.mpcache.bench.harness.JobPairs.Pair;
import org.mpcache.bench.harness.JobPairs.Stratum;
import org.mpcache.bench.harness.StreamSimulation.SimulatedJob;
import org.mpcache.bench.harness.Table.Cell;
import org.mpcache.bench.harness.Table.Style;
import org.mpcache.simulator.Interval;

/**
 * The results folder of the job streams: {@code jobs.csv} (every timed job), {@code summary.md}
 * (the report, which the console shows at the end of a run) and the data of its charts, a CSV
 * file each ({@code chart-<section>.csv}) for a spreadsheet to draw.
 * Each configuration is compared with the baseline, the first of the options' configurations,
 * job by job: a job pairs with the baseline's job of the same seed and index, run in the same
 * sitting where the report merges several results folders ({@code --merge}).
 */
final class Report {
  /** The largest interval half-width, as a share of its estimate, that tells a ratio apart. */
  static final double PRECISION = 0.10;
  /** Above this the busiest HDD of the baseline is the bottleneck a cache can relieve. */
  static final double IO_BOUND = 0.70;
  /** At this the machine's cores, not the devices, would set the job times. */
  static final double CPU_BOUND = 0.80;
  /**
   * Above this share of its input bytes from a cache a job read all of them: its blocks are of
   * one size, so a job of fewer than 100 blocks that missed one is below it.
   */
  private static final double WHOLE_HIT = 0.99;

  /**
   * A check that the run measured what it means to measure; {@code ifFailed}: what a failure
   * does to the ratios and what to change.
   */
  record Gate(String name, String requirement, String measured, Style verdict, String ifFailed) {
  }

  /** One of the targets: a throughput ratio measured and the least it should be. */
  record Target(String name, double goal, Interval measured) {
    boolean met() {
      return measured.estimate() >= goal;
    }
  }

  private final HarnessOptions options;
  private final Map<Long, Long> workingSetBytesBySeed;
  /** Per configuration and seed, the timed jobs as the simulator serves them (its policy). */
  private final Map<ClusterSetup, Map<Long, List<SimulatedJob>>> simulated;
  private final List<JobResult> results;
  private final ClusterSetup baseline;
  private final List<ClusterSetup> setups;
  private final JobPairs pairs;
  /** Every configuration but the baseline against the baseline, in the options' order. */
  private final Map<ClusterSetup, Comparison> comparisons = new LinkedHashMap<>();

  Report(HarnessOptions options, Map<Long, Long> workingSetBytesBySeed,
      Map<ClusterSetup, Map<Long, List<SimulatedJob>>> simulated, List<JobResult> results) {
    this.options = options;
    this.workingSetBytesBySeed = new TreeMap<>(workingSetBytesBySeed);
    this.simulated = simulated;
    this.results = results;
    this.baseline = options.setups().get(0);
    // Merged result files may hold configurations this run's options do not list.
    Set<ClusterSetup> all = new LinkedHashSet<>(options.setups());
    results.stream().map(JobResult::setup).sorted().forEach(all::add);
    this.setups = List.copyOf(all);
    this.pairs = new JobPairs(results);
    for (ClusterSetup setup : others()) {
      comparisons.put(setup, Comparison.of(pairs.between(baseline, setup)));
    }
  }

  void write(File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    List<String> csv = new ArrayList<>(List.of(JobResult.CSV_HEADER));
    results.forEach(r -> csv.add(r.csv()));
    Files.write(new File(dir, "jobs.csv").toPath(), csv, StandardCharsets.UTF_8);
    List<Section> sections = sections();
    Files.writeString(new File(dir, "summary.md").toPath(), markdown(sections));
    for (Section section : sections) {
      if (section.chart() != null) {
        Files.writeString(new File(dir, section.chartFile()).toPath(), section.chart().csv());
      }
    }
  }

  /** The report, its first table the ratios against the baseline with their intervals. */
  String summaryMarkdown() {
    return markdown(sections());
  }

  private String markdown(List<Section> sections) {
    StringBuilder md = new StringBuilder("# ").append(title()).append("\n\n")
        .append(readingGuide()).append("\n\n");
    sections.forEach(section -> md.append(section.markdown()));
    return md.toString();
  }

  /** {@code setup} against the baseline; null for the baseline itself. */
  Comparison comparison(ClusterSetup setup) {
    return comparisons.get(setup);
  }

  List<Gate> gates() {
    return List.of(ioBoundGate(), cpuGate(), outputGate(), pairingGate());
  }

  /**
   * The gates' verdict in plain words, for the console's last lines: a newcomer's first run
   * should say so when the machine did not measure what the ratios claim.
   */
  String gateVerdict() {
    List<Gate> gates = gates();
    List<Gate> failed = gates.stream().filter(gate -> gate.verdict() == Style.FAIL).toList();
    List<String> unmeasured = gates.stream().filter(gate -> gate.verdict() == Style.NOT_MEASURED)
        .map(Gate::name).toList();
    List<String> lines = new ArrayList<>();
    if (!failed.isEmpty()) {
      lines.add(String.format(Locale.ROOT, "VALIDITY GATES FAILED, %d of %d: the ratios above "
          + "may not mean what they say on this machine.", failed.size(), gates.size()));
    } else if (unmeasured.isEmpty()) {
      lines.add(String.format(Locale.ROOT, "Validity gates: all %d passed.", gates.size()));
    } else {
      lines.add(String.format(Locale.ROOT, "Validity gates: none failed; not measured: %s.",
          String.join(", ", unmeasured)));
    }
    failed.forEach(gate -> lines.add(String.format(Locale.ROOT, "- %s: asked %s; measured %s. %s",
        gate.name(), gate.requirement(), gate.measured(), gate.ifFailed())));
    return String.join(System.lineSeparator(), lines);
  }

  /** The targets this run can judge: those whose two configurations ran some jobs both. */
  List<Target> targets() {
    List<Target> targets = new ArrayList<>();
    target(targets, "mpcache over stock", ClusterSetup.MPCACHE, ClusterSetup.STOCK, 2.5,
        pair -> true);
    target(targets, "mpcache over memory (ratio of their throughput ratios)",
        ClusterSetup.MPCACHE, ClusterSetup.MEMORY, 1.8, pair -> true);
    target(targets, "mpcache within 10 % of all-ssd (ratio of their throughput ratios)",
        ClusterSetup.MPCACHE, ClusterSetup.ALL_SSD, 0.9, pair -> true);
    target(targets, "cold pass: mpcache-cold over stock on first reads (≤ 2 % slower)",
        ClusterSetup.MPCACHE_COLD, ClusterSetup.STOCK, 0.98, pair -> pair.job().firstRead());
    return targets;
  }

  /**
   * {@code setup} against {@code reference} over the jobs (seed and index) both ran. Where they
   * ran all of them in the same sittings, paired directly: over the same jobs the ratio of two
   * throughput ratios over stock is the reference's total time over the setup's. Where they ran
   * some in different sittings (merged folders), the ratio of their throughput ratios over those
   * jobs, each over the baseline's run of its own sitting, both resampled on their own: wider
   * than a direct pairing would be where they shared a sitting, and it takes a day's drift to
   * slow every configuration alike.
   */
  private void target(List<Target> targets, String name, ClusterSetup setup,
      ClusterSetup reference, double goal, Predicate<Pair> which) {
    SortedMap<Stratum, List<Pair>> overBaseline =
        Comparison.only(pairs.between(baseline, setup), which);
    SortedMap<Stratum, List<Pair>> referenceOverBaseline =
        Comparison.only(pairs.between(baseline, reference), which);
    Set<JobKey> ranBySetup = keys(overBaseline);
    Set<JobKey> ranByReference = keys(referenceOverBaseline);
    SortedMap<Stratum, List<Pair>> common = Comparison.only(overBaseline,
        pair -> ranByReference.contains(JobKey.of(pair.job())));
    if (common.isEmpty()) {
      return;
    }
    SortedMap<Stratum, List<Pair>> direct =
        Comparison.only(pairs.between(reference, setup), which);
    if (keys(direct).equals(keys(common))) {
      targets.add(new Target(name, goal, Comparison.throughput(direct, JobResult::seconds)));
      return;
    }
    targets.add(new Target(name + ", each over its own sitting's " + baseline.label(), goal,
        Stats.quotient(Comparison.fractions(common, JobResult::seconds),
            Comparison.fractions(Comparison.only(referenceOverBaseline,
                pair -> ranBySetup.contains(JobKey.of(pair.job()))), JobResult::seconds))));
  }

  /** A job of the stream, whichever configuration and sitting ran it. */
  private record JobKey(long seed, int index) {
    static JobKey of(JobResult job) {
      return new JobKey(job.seed(), job.index());
    }
  }

  /** The stream's jobs among {@code jobs}: a baseline run in several sittings counts once. */
  private static long streamJobs(List<JobResult> jobs) {
    return jobs.stream().map(JobKey::of).distinct().count();
  }

  private static Set<JobKey> keys(SortedMap<Stratum, List<Pair>> pairs) {
    return pairs.values().stream().flatMap(List::stream).map(pair -> JobKey.of(pair.job()))
        .collect(Collectors.toSet());
  }

  private List<Section> sections() {
    return List.of(headline(), targetSection(), gateSection(), seedSection(), phaseSection(),
        hitSection(), specificationSection(), resourceSection(), hddTimeSection(),
        benchmarkSection(), setting());
  }

  private String title() {
    return "PUMA job streams: " + setups.stream().map(ClusterSetup::label)
        .collect(Collectors.joining(" vs "));
  }

  private String readingGuide() {
    return String.format(Locale.ROOT, "Every ratio is %s's time over the configuration's for "
        + "the same jobs (same seed, same place in the stream%s): above 1 the configuration is "
        + "faster. Intervals are 95 %%; a ratio is told apart when its interval's half-width is "
        + "at most %s of it.", baseline.label(), pairs.merged() ? ", same sitting" : "",
        percent(PRECISION));
  }

  private Section headline() {
    Table table = new Table("configuration", "jobs", "throughput ratio (95 % CI)",
        "CI ≤ ±10 %", "over streams (95 % CI)", "streams", "geometric mean (95 % CI)",
        "CI ≤ ±10 %");
    table.row(Cell.text(baseline.label()), Cell.number(Long.toString(
        streamJobs(pairs.of(baseline)))), Cell.number("baseline"), Cell.text(""), Cell.number(""),
        Cell.number(""), Cell.number(""), Cell.text(""));
    comparisons.forEach((setup, c) -> table.row(Cell.text(setup.label()),
        Cell.number(Integer.toString(c.throughput().n())), ratioCell(c.throughput()),
        precision(c.throughput()), ratioCell(c.overStreams()),
        Cell.number(Integer.toString(c.overStreams().n())), ratioCell(c.geometricMean()),
        precision(c.geometricMean())));
    ChartData chart = new ChartData("Throughput ratio (total " + baseline.label()
        + " time over the configuration's) and geometric mean of the per-job ratios, with "
        + "their 95 % intervals; " + baseline.label() + " is 1, higher is faster.",
        "configuration", labels(others()), List.of(
            new Series("throughput ratio", bars(c -> Bar.of(c.throughput()))),
            new Series("geometric mean of job ratios", bars(c -> Bar.of(c.geometricMean())))));
    return new Section("ratios", "Throughput against " + baseline.label(), List.of(
        String.format(Locale.ROOT, "Throughput ratio: the sum of %s's job times over the sum of "
            + "the configuration's, with a bootstrap interval (%,d resamples of the jobs, drawn "
            + "within each seed%s). Over streams: the mean of each seed's%s throughput ratio "
            + "with a Student t interval over them; consecutive jobs of a stream share the "
            + "cache's state, so the streams, not the jobs, are the independent observations, "
            + "and few streams make it wide. Geometric mean: of the per-job ratios, with a "
            + "Student t interval on their logarithms. \"CI ≤ ±10 %%\": whether the interval's "
            + "half-width is at most 10 %% of the ratio; where not, more jobs are needed to tell "
            + "the ratio.",
            baseline.label(), Stats.RESAMPLES, pairs.merged() ? " and sitting" : "",
            pairs.merged() ? " (each sitting's)" : "")), table,
        others().isEmpty() ? null : chart);
  }

  private Section targetSection() {
    List<Target> targets = targets();
    Table table = new Table("target", "goal", "measured (95 % CI)", "verdict");
    for (Target target : targets) {
      Interval m = target.measured();
      boolean straddles = m.hasBounds() && m.low() < target.goal() && target.goal() <= m.high();
      table.row(Cell.text(target.name()), Cell.number(String.format(Locale.ROOT, "≥ %.2f×",
          target.goal())), ratioCell(m), new Cell((target.met() ? "met" : "not met")
          + (straddles ? " (the interval straddles the goal)" : ""),
          straddles ? Style.UNCERTAIN : target.met() ? Style.PASS : Style.FAIL));
    }
    return new Section("targets", "Targets", List.of(targets.isEmpty()
        ? "This run judges no target: each compares mpcache (or mpcache-cold) with stock, "
            + "memory or all-ssd over the same jobs."
        : "The targets of docs/benchmarks.md this run can judge: throughput ratios of the "
            + "two configurations over the jobs both ran (the cold pass: over the jobs that "
            + "read their input for the first time in the stream)"
            + (pairs.merged() ? "; where the two ran in different sittings, the ratio of "
                + "their throughput ratios, each over its own sitting's " + baseline.label()
                + ", which takes a day's drift to slow every configuration alike." : ".")),
        targets.isEmpty() ? null : table, null);
  }

  private Section gateSection() {
    Table table = new Table("gate", "requirement", "measured", "verdict");
    for (Gate gate : gates()) {
      table.row(Cell.text(gate.name()), Cell.text(gate.requirement()),
          Cell.text(gate.measured()), new Cell(switch (gate.verdict()) {
            case PASS -> "pass";
            case FAIL -> "fail";
            default -> "not measured";
          }, gate.verdict()));
    }
    return new Section("gates", "Validity gates", List.of("Whether the run measures what it "
        + "means to: a cache helps an I/O-bound cluster, and CPU-bound configurations, wrong "
        + "outputs or unpaired jobs would make the ratios mean something else."), table,
        null);
  }

  private Gate ioBoundGate() {
    double busy = Stats.weightedMean(pairs.of(baseline), JobResult::busiestHddInMaps,
        JobResult::mapSeconds);
    return new Gate("baseline I/O-bound", String.format(Locale.ROOT,
        "%s's busiest emulated HDD ≥ %s busy in map phases (map-time weighted)",
        baseline.label(), percent(IO_BOUND)),
        Double.isNaN(busy) ? "not measured (devices not emulated)" : percent(busy),
        Double.isNaN(busy) ? Style.NOT_MEASURED : busy >= IO_BOUND ? Style.PASS : Style.FAIL,
        "The baseline, " + baseline.label() + ", waited on its HDDs less than the benchmark "
        + "assumes, so a cache has less to save here than on an I/O-bound cluster: the ratios "
        + "understate it. A slower --hdd profile makes the HDDs the bottleneck.");
  }

  private Gate cpuGate() {
    Map<ClusterSetup, Double> cpu = new LinkedHashMap<>();
    setups.forEach(setup -> cpu.put(setup, busyCpu(setup)));
    List<String> bound = cpu.entrySet().stream().filter(e -> e.getValue() >= CPU_BOUND)
        .map(e -> e.getKey().label() + " " + percent(e.getValue())).toList();
    ClusterSetup busiest = cpu.keySet().stream().filter(s -> !Double.isNaN(cpu.get(s)))
        .max(Comparator.comparingDouble(cpu::get)).orElse(null);
    String requirement = String.format(Locale.ROOT, "every configuration's machine CPU < %s "
        + "busy (job-time weighted)", percent(CPU_BOUND));
    String ifFailed = "A CPU-bound configuration's jobs wait on the CPU, not on storage: its "
        + "ratio says little about a cache. Fewer --containers or slower --hdd and --ssd "
        + "profiles give storage the bound back.";
    if (busiest == null) {
      return new Gate("no configuration CPU-bound", requirement,
          "not measured (no /proc/stat)", Style.NOT_MEASURED, ifFailed);
    }
    return bound.isEmpty()
        ? new Gate("no configuration CPU-bound", requirement, "highest: " + busiest.label()
            + " " + percent(cpu.get(busiest)), Style.PASS, ifFailed)
        : new Gate("no configuration CPU-bound", requirement, "CPU-bound: "
            + String.join(", ", bound), Style.FAIL, ifFailed);
  }

  private Gate outputGate() {
    List<JobResult> unchecked = results.stream().filter(job -> !job.outputChecked()).toList();
    String requirement = "every job's output checked against its local oracle";
    String ifFailed = "A job whose output was not checked may have computed something else: "
        + "its time is no evidence. The run's log says why; run without --no-check.";
    if (unchecked.isEmpty()) {
      return new Gate("outputs checked", requirement, "all " + results.size() + " jobs",
          Style.PASS, ifFailed);
    }
    Map<ClusterSetup, Map<Stratum, TreeSet<Integer>>> where = unchecked.stream()
        .collect(Collectors.groupingBy(JobResult::setup, TreeMap::new, Collectors.groupingBy(
            Stratum::of, TreeMap::new, Collectors.mapping(JobResult::index,
                Collectors.toCollection(TreeSet::new)))));
    List<String> lines = new ArrayList<>();
    where.forEach((setup, byStratum) -> byStratum.forEach((stratum, indexes) ->
        lines.add(setup.label() + " " + stratum.label() + ": " + JobPairs.jobList(indexes))));
    return new Gate("outputs checked", requirement, String.format(Locale.ROOT,
        "%d of %d jobs not checked: %s", unchecked.size(), results.size(),
        String.join("; ", lines)), Style.FAIL, ifFailed);
  }

  private Gate pairingGate() {
    List<String> gaps = new ArrayList<>();
    Set<Long> baselineSeeds = pairs.of(baseline).stream().map(JobResult::seed)
        .collect(Collectors.toSet());
    options.seeds().stream().filter(seed -> !baselineSeeds.contains(seed))
        .forEach(seed -> gaps.add(baseline.label() + " seed " + seed + ": no jobs"));
    setups.forEach(setup -> gaps.addAll(pairs.gaps(baseline, setup)));
    String requirement = "every configuration ran the jobs " + baseline.label()
        + " ran, seed by seed" + (pairs.merged() ? ", in a sitting with " + baseline.label() : "");
    String complete = String.format(Locale.ROOT, "complete: %d jobs over %d seeds in each of %d "
        + "configurations", streamJobs(pairs.of(baseline)), baselineSeeds.size(), setups.size())
        + (pairs.merged() ? String.format(Locale.ROOT, ", each paired with %s's of its sitting "
            + "(%d sittings)", baseline.label(), sittings().size()) : "");
    String ifFailed = "Configurations that did not run the same jobs are compared on different "
        + "work. Give the same --report-dir again to run the missing streams.";
    return gaps.isEmpty()
        ? new Gate("complete pairing", requirement, complete, Style.PASS, ifFailed)
        : new Gate("complete pairing", requirement, String.join("; ", gaps), Style.FAIL,
            ifFailed);
  }

  private Section seedSection() {
    Set<Stratum> strata = pairs.strata();
    Table table = new Table(Stream.concat(Stream.of("configuration"),
        strata.stream().map(Stratum::label)).toArray(String[]::new));
    comparisons.forEach((setup, c) -> table.row(Stream.concat(Stream.of(Cell.text(
        setup.label())), strata.stream().map(stratum -> ratioCell(c.throughputByStratum()
            .get(stratum)))).toArray(Cell[]::new)));
    return new Section("seeds", "Throughput ratio per seed", List.of("Each seed's jobs alone "
        + "(95 % bootstrap intervals): the seeds should tell the same story."
        + (pairs.merged() ? " With merged sittings, each sitting's jobs of a seed alone, against "
            + baseline.label() + "'s run in that sitting." : "")), table, null);
  }

  /** The sittings whose results the report merges, by name; none for a folder's own runs. */
  private SortedSet<String> sittings() {
    return pairs.strata().stream().map(Stratum::sitting).filter(name -> !name.isEmpty())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private Section phaseSection() {
    Table table = new Table("configuration", "mean map s", "mean reduce s",
        "map-phase ratio (95 % CI)", "reduce-phase ratio (95 % CI)");
    for (ClusterSetup setup : setups) {
      Comparison c = comparisons.get(setup);
      table.row(Cell.text(setup.label()), Cell.number(seconds(mean(setup,
          JobResult::mapSeconds))), Cell.number(seconds(mean(setup, JobResult::reduceSeconds))),
          c == null ? Cell.number("baseline") : ratioCell(c.mapPhase()),
          c == null ? Cell.number("baseline") : ratioCell(c.reducePhase()));
    }
    long reducing = streamJobs(pairs.of(baseline).stream().filter(job -> job.reduceSeconds() > 0)
        .toList());
    ChartData chart = new ChartData("Mean map-phase and reduce-phase seconds of each "
        + "configuration's jobs.", "configuration", labels(setups),
        List.of(new Series("map phase (s)", phaseBars(JobResult::mapSeconds)),
            new Series("reduce phase (s)", phaseBars(JobResult::reduceSeconds))));
    return new Section("phases", "Map and reduce phases", List.of(String.format(Locale.ROOT,
        "Phase ratios: the sum of %s's phase times over the configuration's, with the same "
            + "bootstrap intervals; the reduce phase over the %d jobs with a reduce phase in %s.",
        baseline.label(), reducing, baseline.label())), table, chart);
  }

  private List<Bar> phaseBars(ToDoubleFunction<JobResult> phase) {
    return setups.stream().map(setup -> Bar.of(mean(setup, phase))).toList();
  }

  private Section hitSection() {
    Set<Long> seeds = pairs.seeds();
    Table table = new Table(Stream.concat(Stream.of("configuration", "all seeds"),
        seeds.stream().map(seed -> "seed " + seed)).toArray(String[]::new));
    for (ClusterSetup setup : setups) {
      table.row(Stream.concat(Stream.of(Cell.text(setup.label()),
          Cell.number(percent(hitRatio(setup, seed -> true)))),
          seeds.stream().map(seed -> Cell.number(percent(hitRatio(setup, seed::equals)))))
          .toArray(Cell[]::new));
    }
    List<ClusterSetup> caching = setups.stream()
        .filter(setup -> !Double.isNaN(hitRatio(setup, seed -> true))).toList();
    ChartData chart = new ChartData("Share of the input bytes served from a cache (SSD or "
        + "RAM), weighted by input size; configurations without a cache are left out.",
        "configuration", labels(caching), List.of(new Series("hit ratio (%)", caching.stream()
            .map(setup -> Bar.of(100 * hitRatio(setup, seed -> true))).toList())));
    return new Section("hits", "Cache hit ratios", List.of("Share of the jobs' input bytes "
        + "read from the cache (SSD or RAM), weighted by input size; — where the "
        + "configuration has no cache."), table, caching.isEmpty() ? null : chart);
  }

  private double hitRatio(ClusterSetup setup, Predicate<Long> seeds) {
    return Stats.weightedMean(pairs.of(setup).stream().filter(job -> seeds.test(job.seed()))
        .toList(), JobResult::hitRatio, JobResult::inputBytes);
  }

  /**
   * Each warm mpCache configuration's timed jobs beside what its policy serves of the same jobs
   * in the simulator, the policy's specification (docs/policies.md).
   */
  private Section specificationSection() {
    Table table = new Table("configuration", "seed", "policy", "block hits: run",
        "block hits: simulated", "whole-job hits: run", "whole-job hits: simulated",
        "whole in the simulation only", "whole in the run only");
    for (ClusterSetup setup : setups) {
      Map<Long, List<SimulatedJob>> specBySeed = simulated.getOrDefault(setup, Map.of());
      for (Stratum stratum : pairs.strata()) {
        List<SimulatedJob> spec = specBySeed.getOrDefault(stratum.seed(), List.of());
        List<Served> jobs = pairs.of(setup).stream()
            .filter(job -> Stratum.of(job).equals(stratum) && job.index() < spec.size())
            .map(job -> new Served(job, spec.get(job.index()))).toList();
        if (jobs.isEmpty()) {
          continue;
        }
        table.row(Cell.text(setup.label()), Cell.number(stratum.name()),
            Cell.text(setup.policy()),
            Cell.number(percent(Stats.weightedMean(jobs, served -> served.run().hitRatio(),
                served -> served.simulated().blocks()))),
            Cell.number(percent(jobs.stream().mapToInt(served -> served.simulated().hits())
                .sum() / (double) jobs.stream().mapToInt(served -> served.simulated().blocks())
                .sum())),
            Cell.number(percent(share(jobs, Served::wholeInRun))),
            Cell.number(percent(share(jobs, Served::wholeInSimulation))),
            Cell.text(jobList(jobs, served -> served.wholeInSimulation()
                && !served.wholeInRun())),
            Cell.text(jobList(jobs, served -> served.wholeInRun()
                && !served.wholeInSimulation())));
      }
    }
    if (table.rows().isEmpty()) {
      return new Section("specification", "The cache against its specification", List.of(
          "No warm mpCache configuration ran on an embedded cluster."), null, null);
    }
    return new Section("specification", "The cache against its specification", List.of(
        "The policy simulator is the specification of a policy (docs/policies.md). Each warm "
            + "mpCache configuration's timed jobs beside what its policy serves of the same "
            + "jobs, placement and history in the simulator, which gives input on each node "
            + "the most room the configuration leaves it, in whole blocks: the whole SSD cache, "
            + "or with localized data on the SSD all but the Localized Cache's own units. Where "
            + "the Dynamic Pool lent localized data room while a job ran, the simulator takes "
            + "each node's least room during the job, as the run sampled it, away at the job's "
            + "end, and the node frees what it holds over it as the master has a slave do "
            + "(earlier runs did not sample it: their simulation lends nothing). Block "
            + "hits of the run: each job's share of input bytes from SSD, "
            + "weighted by its blocks; a whole-job hit: all of a job's input from SSD. The last "
            + "two columns list the jobs (by index) that one side served wholly from SSD and "
            + "the other did not."), table, null);
  }

  /** A timed job as the run served it and as the simulator served it. */
  private record Served(JobResult run, SimulatedJob simulated) {
    boolean wholeInRun() {
      return run.hitRatio() > WHOLE_HIT;
    }

    boolean wholeInSimulation() {
      return simulated.whole();
    }
  }

  private static double share(List<Served> jobs, Predicate<Served> which) {
    return jobs.stream().filter(which).count() / (double) jobs.size();
  }

  private static String jobList(List<Served> jobs, Predicate<Served> which) {
    String list = jobs.stream().filter(which).map(served -> Integer.toString(served.run().index()))
        .collect(Collectors.joining(", "));
    return list.isEmpty() ? "none" : list;
  }

  private Section resourceSection() {
    Table table = new Table("configuration", "busiest HDD in maps", "HDDs busy", "machine CPU",
        "data-local maps", "cache-local maps", "localized on SSD", "by bytes");
    for (ClusterSetup setup : setups) {
      List<JobResult> jobs = pairs.of(setup);
      table.row(Cell.text(setup.label()), Cell.number(percent(Stats.weightedMean(jobs,
          JobResult::busiestHddInMaps, JobResult::mapSeconds))),
          Cell.number(percent(Stats.weightedMean(jobs, JobResult::hddUtilization,
              JobResult::seconds))),
          Cell.number(percent(busyCpu(setup))),
          Cell.number(percent(mean(setup, JobResult::dataLocalMaps))),
          Cell.number(percent(mean(setup, JobResult::cacheLocalMaps))),
          Cell.number(percent(mean(setup, JobResult::localizedOnSsd))),
          Cell.number(percent(Stats.weightedMean(jobs, JobResult::localizedOnSsd,
              JobResult::shuffleBytes))));
    }
    return new Section("resources", "Devices, CPU and locality", List.of("Busy shares "
        + "weighted by the time they cover (map phases for the busiest HDD, whole jobs for the "
        + "rest); locality and localized data on SSD: mean share over the jobs; \"by bytes\": "
        + "localized data on SSD weighted by each job's shuffle bytes, so that a job that "
        + "writes much counts for as much as it writes."), table,
        null);
  }

  /** Where the HDDs' time went: what a cache can take off them and what it cannot. */
  private Section hddTimeSection() {
    List<IoCause> causes = Arrays.stream(IoCause.values())
        .filter(cause -> cause != IoCause.CACHE_COPY).toList();
    Table table = new Table(Stream.concat(Stream.of("configuration", "jobs"), Stream.concat(
        causes.stream().map(IoCause::label), Stream.of("all"))).toArray(String[]::new));
    for (ClusterSetup setup : setups) {
      List<JobResult> measured = pairs.of(setup).stream()
          .filter(job -> !Double.isNaN(job.hddSeconds(IoCause.HDFS_READ))).toList();
      if (!measured.isEmpty()) {
        table.row(Stream.concat(Stream.of(Cell.text(setup.label()),
            Cell.number(Integer.toString(measured.size()))), Stream.concat(
            causes.stream().map(cause -> mean(measured, job -> job.hddSeconds(cause))),
            Stream.of(mean(measured, job -> causes.stream().mapToDouble(job::hddSeconds).sum())))
            .map(value -> Cell.number(seconds(value)))).toArray(Cell[]::new));
      }
    }
    boolean measured = !table.rows().isEmpty();
    return new Section("hdd-time", "Where the HDDs' time went", List.of(measured
        ? "Mean busy seconds of the emulated HDDs per job, summed over the nodes, by what kept "
            + "them busy (seeks included), over the jobs whose runs measured it (earlier runs "
            + "did not: rows are comparable when they count the same jobs). A cache can take "
            + "HDFS reads of job input off the HDDs, and localized data on SSD local and "
            + "shuffle I/O; HDFS writes (job outputs, staging files) stay on them in every "
            + "configuration."
        : "Not measured: the devices were not emulated, or the runs predate this table."),
        measured ? table : null, null);
  }

  private double busyCpu(ClusterSetup setup) {
    return Stats.weightedMean(pairs.of(setup), JobResult::cpuUtilization, JobResult::seconds);
  }

  private Section benchmarkSection() {
    Set<String> benchmarks = new TreeSet<>();
    results.forEach(job -> benchmarks.add(job.benchmark()));
    Map<String, Long> jobs = pairs.of(baseline).stream()
        .collect(Collectors.groupingBy(JobResult::benchmark, Collectors.collectingAndThen(
            Collectors.toList(), Report::streamJobs)));
    Table table = new Table(Stream.concat(Stream.of("benchmark", "jobs"),
        others().stream().map(ClusterSetup::label)).toArray(String[]::new));
    for (String benchmark : benchmarks) {
      long ofBaseline = jobs.getOrDefault(benchmark, 0L);
      table.row(Stream.concat(Stream.of(Cell.text(benchmark),
          Cell.number(Long.toString(ofBaseline))), others().stream().map(setup -> {
            Interval ratio = comparisons.get(setup).byBenchmark().get(benchmark);
            Cell cell = ratioCell(ratio);
            // the count only where pairing left out some of the baseline's jobs
            return ratio == null || ratio.n() == ofBaseline ? cell : new Cell(cell.text(),
                (cell.detail() + " n=" + ratio.n()).trim(), Style.NUMBER);
          })).toArray(Cell[]::new));
    }
    List<Series> series = others().stream().map(setup -> new Series(setup.label(),
        benchmarks.stream().map(benchmark -> {
          Interval ratio = comparisons.get(setup).byBenchmark().get(benchmark);
          return ratio == null ? Bar.of(Double.NaN) : Bar.of(ratio);
        }).toList())).toList();
    ChartData chart = new ChartData("Geometric mean of the per-job ratios to "
        + baseline.label() + " per benchmark, a column per configuration, with 95 % t intervals "
        + "(none under two jobs); " + baseline.label() + " is 1, higher is faster.", "benchmark",
        List.copyOf(benchmarks), series);
    return new Section("benchmarks", "Per benchmark", List.of("Geometric mean of the per-job "
        + "ratios to " + baseline.label() + " of each benchmark's jobs, with its 95 % t "
        + "interval (none under two jobs); jobs: " + baseline.label() + "'s, n: the paired "
        + "ones where fewer."), table,
        others().isEmpty() ? null : chart);
  }

  private Section setting() {
    String devices = options.existingCluster()
        ? "The existing cluster's own devices, nothing emulated or throttled."
        : options.emulated()
        ? String.format(Locale.ROOT, "**Devices were emulated** (this machine has one virtual "
            + "disk): each node has one HDD (%s) holding its DataNode volume and its "
            + "NodeManager's local dirs, and one SSD (%s) holding the mpCache dir and, where "
            + "localized data is cached, the slave's localized dir as the last of the "
            + "NodeManager's four local dirs (under ALL_SSD: a second DataNode volume that holds "
            + "the inputs, and all four local dirs); profile = bandwidth, seek when streams "
            + "interleave, extent per seek.", options.hdd(), options.ssd())
        : "Real devices, unthrottled: HDD = " + options.workDir() + ", SSD = "
            + options.ssdDir() + ".";
    String client = String.format(Locale.ROOT, "Report written %s on a machine with %d "
        + "cores, %d MB max heap, JDK %s, %s. ", LocalDate.now(),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.version"), ManagementFactory.getOperatingSystemMXBean()
            .getName());
    String machine = client + (options.existingCluster() ? String.format(Locale.ROOT,
        "Existing cluster, the one the client configuration names, with its own nodes, "
            + "containers, replication, cache sizes and map output settings; the streams' files "
            + "under %s, input files of %d MB (one block each); input hits from the cache "
            + "master's report (every SSD read of the cluster during a job counts).",
        options.existingClusterDir(), options.blockBytes() >> 20)
        : String.format(Locale.ROOT, "Embedded cluster: %d DataNode + NodeManager pairs, %d task "
            + "containers each, %d MB blocks, replication 1, map outputs %s.", options.nodes(),
            options.containersPerNode(), options.blockBytes() >> 20,
            options.compressMapOutput() ? "snappy-compressed" : "uncompressed"));
    String sizes = workingSetBytesBySeed.entrySet().stream().map(e -> String.format(
        Locale.ROOT, "seed %d: working set %d MB", e.getKey(), e.getValue() >> 20)
        + (options.existingCluster() ? "" : String.format(Locale.ROOT, ", SSD cache %d MB per "
            + "node, in-memory cache %d MB per node", options.ssdBytesPerNode(e.getValue()) >> 20,
            options.memoryBytesPerNode(e.getValue()) >> 20)))
        .collect(Collectors.joining("; "));
    String caches = options.existingCluster() ? ""
        : String.format(Locale.ROOT, " SSD cache %s of the working set over all nodes, "
            + "in-memory cache %s of the SSD cache rounded up to whole blocks; where localized "
            + "data is on the SSD, a Dynamic Pool of %s of the SSD cache.",
            percent(options.ssdShare()), percent(options.memoryShare()),
            percent(options.poolShare()));
    String mix = String.format(Locale.ROOT, "Job streams of %s: per seed, %d jobs whose reads "
        + "warm the caches (untimed), then %d timed jobs, the same sequence in every "
        + "configuration; Zipf s = %s, k ≤ %d, %d MB at k = 1; seeds %s. Outputs %s.%s "
        + "Working sets: %s.",
        options.benchmarks().isEmpty() ? "all PUMA benchmarks"
            : String.join(", ", options.benchmarks()), options.history(), options.jobs(),
        options.zipfS(), options.maxK(), options.baseBytes() >> 20,
        options.seeds().stream().map(String::valueOf).collect(Collectors.joining(", ")),
        !options.checkOutputs() ? "not checked" : options.existingCluster()
            ? "checked against oracles computed from the inputs on HDFS (after the timed jobs)"
            : "checked against local oracles (outside the timings)", caches,
        sizes.isEmpty() ? "unknown" : sizes);
    Table configurations = new Table("configuration", "what it runs");
    setups.forEach(setup -> configurations.row(Cell.text(setup.label()),
        Cell.text(setup.description())));
    List<String> text = new ArrayList<>(List.of(machine, mix, devices));
    if (pairs.merged()) {
      text.add("Merged from the results folders of several sittings (--merge): "
          + String.join(", ", sittings()) + ". A machine's speed drifts between days, so each "
          + "configuration's jobs pair with " + baseline.label() + "'s run of the same seed in "
          + "the same sitting, and a target comparing two configurations run in different "
          + "sittings is the ratio of their throughput ratios, each over its own sitting's "
          + baseline.label() + ".");
    }
    return new Section("setting", "Setting", text, configurations, null);
  }

  private List<ClusterSetup> others() {
    return setups.stream().filter(setup -> setup != baseline).toList();
  }

  private List<Bar> bars(Function<Comparison, Bar> bar) {
    return comparisons.values().stream().map(bar).toList();
  }

  private static List<String> labels(List<ClusterSetup> setups) {
    return setups.stream().map(ClusterSetup::label).toList();
  }

  private double mean(ClusterSetup setup, ToDoubleFunction<JobResult> value) {
    return mean(pairs.of(setup), value);
  }

  private static double mean(List<JobResult> jobs, ToDoubleFunction<JobResult> value) {
    return jobs.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average()
        .orElse(Double.NaN);
  }

  /** "2.40×" with its interval "(2.05–2.80)" where it has one; "—" without an estimate. */
  private static Cell ratioCell(Interval ratio) {
    if (ratio == null || Double.isNaN(ratio.estimate())) {
      return Cell.number("—");
    }
    return new Cell(String.format(Locale.ROOT, "%.2f×", ratio.estimate()), ratio.hasBounds()
        ? String.format(Locale.ROOT, "(%.2f–%.2f)", ratio.low(), ratio.high()) : "",
        Style.NUMBER);
  }

  private static Cell precision(Interval ratio) {
    return ratio.hasBounds() && ratio.within(PRECISION) ? new Cell("pass", Style.PASS)
        : new Cell("fail: more jobs needed", Style.FAIL);
  }

  private static String seconds(double seconds) {
    return Double.isNaN(seconds) ? "—" : String.format(Locale.ROOT, "%.1f", seconds);
  }

  static String percent(double share) {
    return Double.isNaN(share) ? "—" : String.format(Locale.ROOT, "%.0f %%", 100 * share);
  }
}
