package org.mpcache.bench.harness;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_POOL_SHARE_DEFAULT;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.io.FileUtils;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.mpcache.bench.device.DeviceProfile;
import org.mpcache.bench.harness.StreamSimulation.SimulatedJob;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.puma.PumaBenchmark;
import org.mpcache.puma.PumaBenchmarks;
import org.mpcache.simulator.ToolOptions;

/**
 * Runs job streams of the PUMA mix on the same embedded cluster shape under every configuration
 * to compare, with the same data, placement and devices, one stream per seed and configuration
 * (configurations alternate: each seed starts with another), and writes the results folder:
 * the runs' CSVs and a Markdown report with confidence intervals (its charts' data as CSV),
 * merged over every stream the folder holds. Usage: see {@link #OPTIONS} or
 * {@code dev-support/puma-benchmark.sh --help}.
 */
public final class BenchmarkHarness {
  /**
   * HDD and SSD in slow motion, every time 35 times a real device's: what makes a many-core
   * node I/O bound (tasks read faster than its disks deliver) must hold for 2 cores running 6 task
   * JVMs. The HDD is a 7200 rpm disk (70 MB/s, 16.2 ms a seek) that keeps what a published one
   * keeps of its rate under 2, 4 and 8 interleaved readers; the SSD a SATA one (560 MB/s) that
   * interleaving hardly slows (docs/benchmarks.md, "Calibration"; TestDeviceCalibration).
   */
  public static final String DEFAULT_HDD = "2MB/s,567ms,1088KB";
  public static final String DEFAULT_SSD = "16MB/s,0.5ms,256KB";
  private static final String ALL_CONFIGS = "stock,memory,all-ssd,mpcache,mpcache-input-only,"
      + "mpcache-cold,mpcache-paper,mpcache-lru,mpcache-lfu,mpcache-mru";
  /** System property naming the file Hadoop's log lines go to (bench-log4j.properties). */
  private static final String LOG_FILE_PROPERTY = "mpcache.bench.log";

  static final ToolOptions OPTIONS = new ToolOptions("dev-support/puma-benchmark.sh [options]")
      .valued("configs", "LIST", "stock,mpcache", "configurations, the first is the baseline of "
          + "the ratios; all = " + ALL_CONFIGS)
      .valued("seeds", "LIST", "1", "job streams to run, one per seed (mix, data and "
          + "placement); seed s runs the configurations from the s-th on, cyclically")
      .valued("jobs", "N", "6", "timed jobs per stream")
      .valued("history", "N", "24", "jobs drawn before the timed ones: their inputs are read "
          + "once, untimed, so caches start as a stream of earlier jobs left them (not under "
          + "mpcache-cold)")
      .valued("s", "S", "1", "Zipf parameter (Equation (3))")
      .valued("max-k", "K", "4", "largest input scale k")
      .valued("base-mb", "MB", "8", "input MB at k = 1")
      .valued("block-mb", "MB", "8", "HDFS block size")
      .valued("nodes", "N", "3", "DataNode+NodeManager pairs")
      .valued("containers", "N", "2", "task containers a node")
      .valued("hdd", "PROFILE", DEFAULT_HDD, "emulated HDD: bandwidth, seek, extent per seek")
      .valued("ssd", "PROFILE", DEFAULT_SSD, "emulated SSD: bandwidth, seek, extent per seek")
      .flag("real-devices", "no emulation: put --work-dir on the HDD mount, --ssd-dir on the "
          + "SSD")
      .valued("ssd-share", "SHARE", "0.25", "SSD cache over all nodes, as a share of the "
          + "working set")
      .valued("memory-share", "SHARE", Double.toString(HarnessOptions.PAPER_MEMORY_SHARE),
          "in-memory cache, as a share of the SSD cache (paper: 12 GB / 80 GB), rounded up to "
          + "whole blocks per node")
      .valued("pool-share", "SHARE", Double.toString(DFS_MPCACHE_POOL_SHARE_DEFAULT), "the "
          + "slaves' Dynamic Pool, as a share of their SSD cache, where localized data is on "
          + "the SSD (dfs.mpcache.pool.share)")
      .valued("benchmarks", "NAMES", null, "draw the mix from these PUMA benchmarks only "
          + "(comma-separated; default all)")
      .flag("uncompressed-map-output", "map outputs as Hadoop's default writes them")
      .flag("no-check", "skip the output checks")
      .flag("plan", "print each seed's jobs, data sets and cache sizes, run nothing")
      .valued("report-dir", "DIR", null, "results folder (default target/bench/puma-<time>); "
          + "give an existing one to resume it (streams already there are kept) or to add "
          + "seeds or configurations")
      .valued("merge", "DIR,DIR", null, "run nothing: report over the results folders of "
          + "several sittings into --report-dir, each configuration's jobs paired with the "
          + "baseline's of the same sitting (give the options they were run with); "
          + "DIR:memory+all-ssd takes only those configurations (and the baseline) from DIR")
      .valued("work-dir", "DIR", "target/bench/work", "where the clusters and inputs live")
      .valued("ssd-dir", "DIR", null, "with --real-devices: the SSD's folder")
      .valued("cluster", "KIND", "embedded", "embedded: a cluster on this machine per stream, "
          + "as above; existing: the cluster of the client configuration (run through yarn "
          + "jar, docs/benchmarks.md): inputs generated there by a MapReduce job, one "
          + "configuration per run, --configs naming what that cluster runs; its shape, devices "
          + "and cache sizes are its own")
      .valued("hdfs-dir", "DIR", "mpcache-bench", "with --cluster existing: the HDFS folder of "
          + "inputs and outputs");

  private final HarnessOptions options;
  private final File inputs;

  BenchmarkHarness(HarnessOptions options) {
    this.options = options;
    this.inputs = new File(options.workDir(), "inputs-" + options.baseBytes() + "-"
        + options.blockBytes());
  }

  public static void main(String[] args) throws Exception {
    ToolOptions.Values given = OPTIONS.parse(args);
    File reportDir = new File(given.has("report-dir") ? given.value("report-dir")
        : "target/bench/puma-" + System.currentTimeMillis() / 1000).getAbsoluteFile();
    // Before any Hadoop class logs: its lines go to the results folder, not the console.
    System.setProperty(LOG_FILE_PROPERTY, new File(reportDir, "hadoop.log").getPath());
    HarnessOptions options = options(given);
    if (options.existingCluster() && options.setups().size() != 1) {
      throw new IllegalArgumentException("--cluster existing runs one configuration, the one "
          + "the cluster runs: give it alone in --configs, not " + options.setups());
    }
    BenchmarkHarness harness = new BenchmarkHarness(options);
    if (given.has("plan")) {
      options.seeds().forEach(harness::logPlan);
      return;
    }
    String merge = given.value("merge");
    List<JobResult> results;
    if (merge == null) {
      ResultsFolder folder = new ResultsFolder(reportDir);
      folder.claim(harness.settings());
      harness.run(folder);
      results = folder.all();
    } else {
      results = harness.merged(Arrays.stream(merge.split(","))
          .map(MergedSittings.Folder::parse).toList(), reportDir);
    }
    Report report = harness.report(results);
    report.write(reportDir);
    System.out.println();
    System.out.println(report.summaryMarkdown());
    if (!options.existingCluster() && merge == null) {
      // Under yarn jar, Hadoop's scripts have set its logging up already.
      System.out.println("Hadoop's log: " + System.getProperty(LOG_FILE_PROPERTY));
    }
    if (merge == null) {
      System.out.println("Resume or add seeds with: --report-dir " + reportDir);
    }
    System.out.println("Report: " + new File(reportDir, "summary.md") + ", its charts' data: "
        + new File(reportDir, "chart-*.csv"));
    System.out.println();
    System.out.println(report.gateVerdict());
  }

  /**
   * The jobs of the results folders of several sittings ({@link MergedSittings}), for a report
   * into {@code reportDir}, which is none of them (its own report would replace theirs).
   */
  private List<JobResult> merged(List<MergedSittings.Folder> folders, File reportDir)
      throws IOException {
    if (options.existingCluster()) {
      throw new IllegalArgumentException("--merge reports over folders of embedded-cluster runs; "
          + "an existing cluster's runs, one configuration each, go into one --report-dir");
    }
    if (folders.stream().anyMatch(folder -> folder.dir().equals(reportDir))) {
      throw new IllegalArgumentException("--report-dir " + reportDir + " is one of the folders "
          + "to merge: the merged report would replace its own; give a new folder");
    }
    MergedSittings.Merge merge =
        MergedSittings.of(folders, settings(), options.setups().get(0));
    merge.leftOut().forEach(stream -> log("left out of the merge: %s", stream));
    return merge.jobs();
  }

  static HarnessOptions options(ToolOptions.Values given) {
    boolean real = given.has("real-devices") || existing(given);
    return new HarnessOptions(
        Integer.parseInt(given.value("nodes")),
        Long.parseLong(given.value("block-mb")) << 20,
        Integer.parseInt(given.value("history")),
        Integer.parseInt(given.value("jobs")),
        Double.parseDouble(given.value("s")),
        Integer.parseInt(given.value("max-k")),
        (long) (Double.parseDouble(given.value("base-mb")) * (1 << 20)),
        Arrays.stream(given.value("seeds").split(",")).map(String::trim)
            .map(Long::valueOf).distinct().toList(),
        configs(given.value("configs")),
        real ? null : DeviceProfile.parse(given.value("hdd")),
        real ? null : DeviceProfile.parse(given.value("ssd")),
        Double.parseDouble(given.value("ssd-share")),
        Double.parseDouble(given.value("memory-share")),
        Double.parseDouble(given.value("pool-share")),
        new File(given.value("work-dir")).getAbsoluteFile(),
        given.has("ssd-dir") ? new File(given.value("ssd-dir")).getAbsoluteFile() : null,
        Integer.parseInt(given.value("containers")),
        !given.has("no-check"),
        given.has("benchmarks") ? Arrays.stream(given.value("benchmarks").split(","))
            .map(String::trim).filter(name -> !name.isEmpty()).toList() : List.of(),
        !given.has("uncompressed-map-output"),
        existing(given) ? given.value("hdfs-dir") : null);
  }

  private static boolean existing(ToolOptions.Values given) {
    String cluster = given.value("cluster");
    if (!cluster.equals("embedded") && !cluster.equals("existing")) {
      throw new IllegalArgumentException("--cluster is embedded or existing, not " + cluster);
    }
    return cluster.equals("existing");
  }

  private static List<ClusterSetup> configs(String names) {
    return Arrays.stream((names.equals("all") ? ALL_CONFIGS : names).split(","))
        .map(ClusterSetup::of).distinct().toList();
  }

  /** What every stream of one results folder must share to be paired with the others. */
  Map<String, String> settings() {
    Map<String, String> settings = new TreeMap<>();
    settings.put("nodes", Integer.toString(options.nodes()));
    settings.put("block-bytes", Long.toString(options.blockBytes()));
    settings.put("history", Integer.toString(options.history()));
    settings.put("jobs", Integer.toString(options.jobs()));
    settings.put("s", Double.toString(options.zipfS()));
    settings.put("max-k", Integer.toString(options.maxK()));
    settings.put("base-bytes", Long.toString(options.baseBytes()));
    settings.put("hdd", String.valueOf(options.hdd()));
    settings.put("ssd", String.valueOf(options.ssd()));
    settings.put("ssd-share", Double.toString(options.ssdShare()));
    settings.put("memory-share", Double.toString(options.memoryShare()));
    if (options.poolShare() != DFS_MPCACHE_POOL_SHARE_DEFAULT) {
      // Only where it differs: folders run at the product's pool name no pool share.
      settings.put("pool-share", Double.toString(options.poolShare()));
    }
    settings.put("containers", Integer.toString(options.containersPerNode()));
    settings.put("benchmarks", String.join(",", options.benchmarks()));
    settings.put("compress-map-output", Boolean.toString(options.compressMapOutput()));
    if (options.existingCluster()) {
      settings.put("cluster", "existing " + FileSystem.getDefaultUri(new HdfsConfiguration())
          + " " + options.existingClusterDir());
    }
    return settings;
  }

  private WorkloadMix mix(long seed) {
    List<PumaBenchmark> benchmarks = options.benchmarks().isEmpty() ? PumaBenchmarks.all()
        : options.benchmarks().stream().map(PumaBenchmarks::byName).toList();
    return new WorkloadMix(benchmarks, options.history(), options.jobs(), options.zipfS(),
        options.maxK(), options.baseBytes(), seed);
  }

  private void logPlan(long seed) {
    WorkloadMix mix = mix(seed);
    log("seed %d: %d timed jobs after %d earlier ones, over %d data sets: working set %d MB%s",
        seed, mix.jobs().size(), mix.history().size(), mix.dataSets().size(),
        mix.workingSetBytes() >> 20, options.existingCluster() ? "" : String.format(Locale.ROOT,
            "; SSD cache %d MB per node, in-memory cache %d MB per node",
            options.ssdBytesPerNode(mix.workingSetBytes()) >> 20,
            options.memoryBytesPerNode(mix.workingSetBytes()) >> 20));
    for (JobSpec spec : mix.jobs()) {
      log("  job %2d %-22s %-14s %4d MB", spec.index(), spec.benchmark().name(),
          spec.input().source().dirName() + "/k" + spec.input().k(), spec.input().bytes() >> 20);
    }
    if (!options.existingCluster()) {
      logSimulation(seed, mix);
    }
  }

  /**
   * What the policy simulator says the caches of this run's mpCache configurations could hit on
   * these jobs: once per room they leave input data (a whole cache when none runs).
   */
  private void logSimulation(long seed, WorkloadMix mix) {
    Map<Long, List<String>> labelsByRoom = new TreeMap<>(Comparator.reverseOrder());
    for (ClusterSetup setup : options.setups()) {
      if (setup.mpCache()) {
        labelsByRoom.computeIfAbsent(inputRoom(setup, mix), room -> new ArrayList<>())
            .add(setup.label());
      }
    }
    if (labelsByRoom.isEmpty()) {
      labelsByRoom.put(options.ssdBytesPerNode(mix.workingSetBytes()),
          List.of("a cache for input alone"));
    }
    labelsByRoom.forEach((room, labels) -> {
      log("seed %d simulated for %s (docs/policies.md; %d blocks of input a node): timed jobs'"
          + " block hits / whole-job hits", seed, String.join(", ", labels),
          room / options.blockBytes());
      for (StreamSimulation.Figures figures : simulation(seed, mix, room).figures()) {
        log("  %-14s %5.1f %% / %5.1f %%", figures.name(), 100 * figures.blockHitRatio(),
            100 * figures.jobHitRatio());
      }
    });
  }

  /**
   * Runs every stream the folder does not hold yet. Configurations alternate: seed 1 runs them
   * in the order given, seed s starts with the s-th (cyclically), so no configuration always
   * runs first or last in a sitting.
   */
  void run(ResultsFolder folder) throws Exception {
    List<ClusterSetup> setups = options.setups();
    for (long seed : options.seeds()) {
      WorkloadMix mix = mix(seed);
      int first = (int) Math.floorMod(seed - 1, (long) setups.size());
      boolean planLogged = false;
      for (int i = 0; i < setups.size(); i++) {
        ClusterSetup setup = setups.get((first + i) % setups.size());
        if (folder.done(seed, setup)) {
          log("seed %d, %s: already in %s, kept", seed, setup.label(), folder.dir());
          saveDecisions(folder, seed, mix, setup);
          continue;
        }
        if (!planLogged) {
          logPlan(seed);
          planLogged = true;
        }
        LocalDataSets local = new LocalDataSets(mix, options.blockBytes(), inputs);
        if (!options.existingCluster()) {
          local.generateMissing(); // before a cluster starts: not part of the stream's time
        }
        long startNanos = System.nanoTime();
        log("seed %d, %s (%s): %s", seed, setup.label(), setup.description(),
            options.existingCluster() ? "on the existing cluster" : "starting a cluster");
        List<JobResult> jobs = runStream(setup, mix, seed, local, folder);
        folder.save(seed, setup, jobs);
        log("seed %d, %s: %d jobs in %.1f min, outputs %s", seed, setup.label(), jobs.size(),
            (System.nanoTime() - startNanos) / 60e9,
            options.checkOutputs() ? "checked" : "not checked (--no-check)");
        saveDecisions(folder, seed, mix, setup);
      }
    }
  }

  /**
   * The simulator's decisions on a warm mpCache stream the folder holds, by this code's policy
   * with the room the run lent localized data: written even for a stream of an earlier sitting,
   * to compare it with (its policy unchanged since). A diagnostic: a failure to write it is
   * logged, and the run goes on.
   */
  private void saveDecisions(ResultsFolder folder, long seed, WorkloadMix mix,
      ClusterSetup setup) {
    if (!setup.mpCache() || !setup.warmedUp() || options.existingCluster()) {
      return;
    }
    try {
      folder.saveDecisions(seed, setup, simulation(seed, mix, inputRoom(setup, mix))
          .decisions(setup.policy(), StreamSimulation.leastInputRoom(folder.stream(seed, setup))));
    } catch (IOException e) {
      log("seed %d, %s: the simulator's decisions were not written: %s", seed, setup.label(),
          e.getMessage());
    }
  }

  private List<JobResult> runStream(ClusterSetup setup, WorkloadMix mix, long seed,
      LocalDataSets local, ResultsFolder folder) throws Exception {
    if (options.existingCluster()) {
      try (ExistingCluster cluster = ExistingCluster.connect(setup,
          options.existingClusterDir(), inputs.getName(), seed)) {
        local.generateMissing(); // the oracles' copies, once the cluster is what --configs says
        return new JobStream(options, mix,
            new ClusterGeneratedInputs(mix, options.blockBytes(), local))
            .run(cluster, seed, BenchmarkHarness::progress);
      }
    }
    File runDir = new File(options.workDir(), "run-" + setup.label() + "-" + seed);
    FileUtils.deleteQuietly(runDir);
    long ssdPerNode = options.ssdBytesPerNode(mix.workingSetBytes());
    long memoryPerNode = options.memoryBytesPerNode(mix.workingSetBytes());
    try (BenchCluster cluster =
        BenchCluster.start(setup, options, ssdPerNode, memoryPerNode, runDir)) {
      return new JobStream(options, mix, new LocalInputs(mix, options.blockBytes(), local))
          .run(cluster, seed, BenchmarkHarness::progress);
    } finally {
      keepTaskLogs(runDir, new File(folder.dir(), "task-logs/" + runDir.getName()));
      FileUtils.deleteQuietly(runDir);
      if (options.ssdDir() != null) {
        FileUtils.deleteQuietly(new File(options.ssdDir(), runDir.getName()));
      }
    }
  }

  /**
   * Copies the ApplicationMasters' and tasks' own logs (each container's syslog, from the
   * NodeManagers' log dirs) out of the run's directory before it goes: where maps ran and how
   * long each phase took are only there (docs/benchmarks.md, "How a run works").
   */
  private static void keepTaskLogs(File runDir, File kept) {
    File[] hosts = new File(runDir, "yarn").listFiles(File::isDirectory);
    if (hosts == null) {
      return;
    }
    try {
      for (File host : hosts) {
        File logs = new File(host, "log");
        if (logs.isDirectory()) {
          FileUtils.copyDirectory(logs, new File(kept, host.getName()),
              file -> file.isDirectory() || file.getName().equals("syslog"));
        }
      }
    } catch (IOException e) {
      log("the task logs of %s were not all kept: %s", runDir.getName(), e.getMessage());
    }
  }

  private static void progress(JobResult job, int jobs) {
    log("seed %d, %-18s job %2d/%d %-22s %-14s %4d MB %6.1f s (map %5.1f, reduce %5.1f)  "
        + "input hits %4s  busiest HDD in maps %4s  CPU %4s", job.seed(), job.setup().label(),
        job.index() + 1, jobs, job.benchmark(), job.input(), job.inputBytes() >> 20,
        job.seconds(), job.mapSeconds(), job.reduceSeconds(), Report.percent(job.hitRatio()),
        Report.percent(job.busiestHddInMaps()), Report.percent(job.cpuUtilization()));
  }

  /** A report over every stream of the folder, the configurations in this run's order. */
  Report report(List<JobResult> results) {
    List<ClusterSetup> setups = new ArrayList<>(options.setups());
    List<Long> seeds = new ArrayList<>();
    for (JobResult job : results) {
      if (!setups.contains(job.setup())) {
        setups.add(job.setup());
      }
      if (!seeds.contains(job.seed())) {
        seeds.add(job.seed());
      }
    }
    seeds.sort(null);
    if (options.existingCluster()) {
      // Each run adds the one configuration the cluster ran: the baseline is the first in
      // ClusterSetup's order (stock), whichever run came last.
      setups.sort(null);
    }
    Map<Long, Long> workingSets = new LinkedHashMap<>();
    seeds.forEach(seed -> workingSets.put(seed, mix(seed).workingSetBytes()));
    return new Report(options.withRuns(seeds, setups), workingSets,
        simulated(seeds, setups, results), results);
  }

  /**
   * The timed jobs of each seed as each warm mpCache configuration's policy serves them in the
   * simulator, with the room its run lent localized data; none on an existing cluster, whose SSD
   * caches the harness does not size.
   */
  private Map<ClusterSetup, Map<Long, List<SimulatedJob>>> simulated(List<Long> seeds,
      List<ClusterSetup> setups, List<JobResult> results) {
    Map<ClusterSetup, Map<Long, List<SimulatedJob>>> simulated = new LinkedHashMap<>();
    if (options.existingCluster()) {
      return simulated;
    }
    for (long seed : seeds) {
      WorkloadMix mix = mix(seed);
      for (ClusterSetup setup : setups) {
        if (setup.mpCache() && setup.warmedUp()) {
          simulated.computeIfAbsent(setup, s -> new TreeMap<>()).put(seed,
              simulation(seed, mix, inputRoom(setup, mix)).timedJobs(setup.policy(),
                  StreamSimulation.leastInputRoom(results.stream().filter(
                      job -> job.setup() == setup && job.seed() == seed).toList())));
        }
      }
    }
    return simulated;
  }

  /** The most room a node's SSD cache under {@code setup} leaves input data in {@code mix}. */
  private long inputRoom(ClusterSetup setup, WorkloadMix mix) {
    return setup.inputCeilingBytes(options.ssdBytesPerNode(mix.workingSetBytes()),
        options.blockBytes(), options.poolShare());
  }

  /** The stream of {@code seed} in the simulator, {@code inputBytes} of input cache a node. */
  private StreamSimulation simulation(long seed, WorkloadMix mix, long inputBytes) {
    return new StreamSimulation(mix, options.nodes(), options.blockBytes(), inputBytes,
        options.zipfS(), seed);
  }

  static void log(String format, Object... args) {
    System.out.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    System.out.flush();
  }
}
