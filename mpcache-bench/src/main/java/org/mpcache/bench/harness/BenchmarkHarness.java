package org.mpcache.bench.harness;

import static org.mpcache.tools.CommandLine.option;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.mpcache.bench.device.DeviceProfile;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.locality.CacheLocalityCounter;
import org.mpcache.puma.PumaBenchmark;
import org.mpcache.puma.PumaBenchmarks;
import org.mpcache.slave.CacheCounter;

/**
 * Runs the PUMA mix on the same embedded cluster shape under every configuration to compare,
 * with the same data and devices, and writes the results folder (raw CSV, Markdown summary,
 * HTML charts). Usage: see {@link #USAGE} or {@code dev-support/puma-benchmark.sh --help}.
 */
public final class BenchmarkHarness {
  /**
   * HDD and SSD in slow motion, every time 140 times a real device's: what makes a many-core
   * node I/O bound (tasks read faster than its disks deliver) must hold for 2 cores running 6 task
   * JVMs. The HDD is a 7200 rpm disk (70 MB/s, 16.2 ms a seek) that keeps what a published one
   * keeps of its rate under 2, 4 and 8 interleaved readers; the SSD a SATA one (560 MB/s) that
   * interleaving hardly slows (docs/benchmarks.md, "Calibration"; TestDeviceCalibration).
   */
  public static final String DEFAULT_HDD = "0.5MB/s,2268ms,1088KB";
  public static final String DEFAULT_SSD = "4MB/s,0.5ms,256KB";
  private static final String ALL_CONFIGS =
      "stock,memory,all-ssd,mpcache,mpcache-input-only,mpcache-lru,mpcache-lfu,mpcache-mru";

  static final String USAGE = """
      dev-support/puma-benchmark.sh [options]
        --configs stock,mpcache   configurations, the first is the baseline of the speedups;
                              "all" = %s
        --jobs 4              jobs timed               --repeats 1   runs of each configuration
        --history 24          jobs drawn before the timed ones: their inputs are read once,
                              untimed, so caches start as a stream of earlier jobs left them
        --s 1                 Zipf parameter (Eq. 3)   --max-k 4     largest input scale k
        --base-mb 8           input MB at k = 1        --seed 1      seed of the mix and data
        --nodes 3             DataNode+NodeManager pairs   --block-mb 8   HDFS block size
        --containers 2        task containers per node
        --hdd %s  --ssd %s   emulated device profiles
        --real-devices        no emulation: put --work-dir on the HDD mount, --ssd-dir on the SSD
        --ssd-share 0.5       SSD cache over all nodes, as a share of the working set
        --memory-share 0.15   in-memory cache, as a share of the SSD cache (paper: 12 GB / 80 GB),
                              rounded up to whole blocks per node
        --benchmarks <names>  draw the mix from these PUMA benchmarks only (comma-separated,
                              e.g. the shuffle-heavy tera-sort,self-join,adjacency-list,
                              ranked-inverted-index,k-means); default all
        --uncompressed-map-output   map outputs as Hadoop's default writes them (larger
                              shuffles); default snappy-compressed, as production clusters run
        --no-check            skip the output checks
        --plan                print the jobs, data sets and cache sizes, run nothing
        --work-dir target/bench/work  --ssd-dir <dir>  --report-dir target/bench/puma-<time>
      """.formatted(ALL_CONFIGS, DEFAULT_HDD, DEFAULT_SSD);

  private final HarnessOptions options;
  private final WorkloadMix mix;
  private final File inputs;

  BenchmarkHarness(HarnessOptions options) {
    this.options = options;
    List<PumaBenchmark> benchmarks = options.benchmarks().isEmpty() ? PumaBenchmarks.all()
        : options.benchmarks().stream().map(PumaBenchmarks::byName).toList();
    this.mix = new WorkloadMix(benchmarks, options.history(), options.jobs(), options.zipfS(),
        options.maxK(), options.baseBytes(), options.seed());
    this.inputs = new File(options.workDir(), "inputs-" + options.seed() + "-"
        + options.baseBytes());
  }

  public static void main(String[] args) throws Exception {
    if (Arrays.asList(args).contains("--help")) {
      System.out.print(USAGE);
      return;
    }
    boolean real = Arrays.asList(args).contains("--real-devices");
    String ssdDir = option(args, "--ssd-dir", null);
    HarnessOptions options = new HarnessOptions(
        Integer.parseInt(option(args, "--nodes", "3")),
        Long.parseLong(option(args, "--block-mb", "8")) << 20,
        Integer.parseInt(option(args, "--history", "24")),
        Integer.parseInt(option(args, "--jobs", "4")),
        Double.parseDouble(option(args, "--s", "1")),
        Integer.parseInt(option(args, "--max-k", "4")),
        (long) (Double.parseDouble(option(args, "--base-mb", "8")) * (1 << 20)),
        Long.parseLong(option(args, "--seed", "1")),
        Integer.parseInt(option(args, "--repeats", "1")),
        configs(option(args, "--configs", "stock,mpcache")),
        real ? null : DeviceProfile.parse(option(args, "--hdd", DEFAULT_HDD)),
        real ? null : DeviceProfile.parse(option(args, "--ssd", DEFAULT_SSD)),
        Double.parseDouble(option(args, "--ssd-share", "0.5")),
        Double.parseDouble(option(args, "--memory-share",
            Double.toString(HarnessOptions.PAPER_MEMORY_SHARE))),
        new File(option(args, "--work-dir", "target/bench/work")).getAbsoluteFile(),
        ssdDir == null ? null : new File(ssdDir).getAbsoluteFile(),
        Integer.parseInt(option(args, "--containers", "2")),
        !Arrays.asList(args).contains("--no-check"),
        Arrays.stream(option(args, "--benchmarks", "").split(",")).map(String::trim)
            .filter(name -> !name.isEmpty()).toList(),
        !Arrays.asList(args).contains("--uncompressed-map-output"));
    File reportDir = new File(option(args, "--report-dir",
        "target/bench/puma-" + System.currentTimeMillis() / 1000)).getAbsoluteFile();
    BenchmarkHarness harness = new BenchmarkHarness(options);
    if (Arrays.asList(args).contains("--plan")) {
      harness.logPlan();
      return;
    }
    List<JobResult> results = harness.run(reportDir);
    Report report = new Report(options, harness.mix.workingSetBytes(), results);
    report.write(reportDir);
    System.out.println(report.summaryMarkdown());
    System.out.println("Report: " + new File(reportDir, "summary.md"));
    System.out.println("Charts: " + new File(reportDir, "report.html"));
  }

  private long ssdPerNode() {
    return options.ssdBytesPerNode(mix.workingSetBytes());
  }

  private long memoryPerNode() {
    return options.memoryBytesPerNode(mix.workingSetBytes());
  }

  private void logPlan() {
    log("mix of %d timed jobs after %d earlier ones, over %d data sets: working set %d MB; "
        + "SSD cache %d MB per node, in-memory cache %d MB per node", mix.jobs().size(),
        mix.history().size(), mix.dataSets().size(),
        mix.workingSetBytes() >> 20, ssdPerNode() >> 20, memoryPerNode() >> 20);
    for (JobSpec spec : mix.jobs()) {
      log("job %d %-22s %s/k%d %d MB", spec.index(), spec.benchmark().name(),
          spec.input().source().dirName(), spec.input().k(), spec.input().bytes() >> 20);
    }
  }

  private static List<ClusterSetup> configs(String names) {
    return Arrays.stream((names.equals("all") ? ALL_CONFIGS : names).split(","))
        .map(ClusterSetup::of).toList();
  }

  /** Runs every configuration; each job's line is appended to jobs.csv as soon as it ends. */
  List<JobResult> run(File reportDir) throws Exception {
    Files.createDirectories(reportDir.toPath());
    File csv = new File(reportDir, "jobs.csv");
    Files.writeString(csv.toPath(), JobResult.CSV_HEADER + "\n");
    long ssdPerNode = ssdPerNode();
    long memoryPerNode = memoryPerNode();
    logPlan();
    generateInputs();
    List<JobResult> results = new ArrayList<>();
    for (int repeat = 1; repeat <= options.repeats(); repeat++) {
      for (ClusterSetup setup : options.setups()) {
        File runDir = new File(options.workDir(), "run-" + setup.label() + "-" + repeat);
        FileUtils.deleteQuietly(runDir);
        try (BenchCluster cluster =
            BenchCluster.start(setup, options, ssdPerNode, memoryPerNode, runDir)) {
          results.addAll(runMix(cluster, repeat, memoryPerNode * options.nodes(), csv));
        } finally {
          FileUtils.deleteQuietly(runDir);
          if (options.ssdDir() != null) {
            FileUtils.deleteQuietly(new File(options.ssdDir(), runDir.getName()));
          }
        }
      }
    }
    return results;
  }

  /** Writes every data set of the mix once to local disk; each cluster copies them in. */
  private void generateInputs() throws IOException {
    FileSystem local = FileSystem.getLocal(new Configuration());
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dataSet.dir(new Path(inputs.toURI()));
      if (!local.exists(new Path(dir, "_COMPLETE"))) {
        log("generating %s (%d MB)", dir, dataSet.bytes() >> 20);
        local.delete(dir, true);
        dataSet.source().generate(local, dir, dataSet.bytes(), dataSet.seed());
        local.create(new Path(dir, "_COMPLETE")).close();
      }
    }
  }

  private List<JobResult> runMix(BenchCluster cluster, int repeat, long memoryBudget, File csv)
      throws Exception {
    FileSystem fs = cluster.fs();
    Path root = BenchCluster.INPUTS;
    cluster.emulate(false);
    copyInputs(cluster, root);
    MemoryCachePlanner memory = cluster.setup() == ClusterSetup.MEMORY
        ? new MemoryCachePlanner(cluster.fs(), memoryBudget) : null;
    warmUp(cluster, root, memory);
    List<JobResult> results = new ArrayList<>();
    for (JobSpec spec : mix.jobs()) {
      Path input = spec.input().dir(root);
      Path output = new Path("/out/" + spec.index());
      if (memory != null) {
        memory.beforeJob(input);
      }
      Job job = spec.benchmark().createJob(new Configuration(cluster.jobConf()), input, output);
      long ssdBefore = cluster.cacheCounter(CacheCounter.BYTES_FROM_SSD);
      long hddBefore = cluster.cacheCounter(CacheCounter.BYTES_FROM_HDD);
      long memoryBefore = MemoryCacheAwareFsDatasetFactory.bytesFromMemory();
      long evictionsBefore = cluster.cacheCounter(CacheCounter.EVICTIONS);
      long grantedBefore = cluster.localizedGrantedBytes();
      long refusedBefore = cluster.localizedRefusedBytes();
      long[] busyBefore = cluster.hddBusyNanos();
      cluster.emulate(true);
      MachineCpu.Reading cpuBefore = MachineCpu.read();
      long start = System.nanoTime();
      boolean ok = job.waitForCompletion(false);
      long wallNanos = System.nanoTime() - start;
      double cpuBusy = MachineCpu.read().busySince(cpuBefore);
      cluster.emulate(false);
      if (!ok) {
        throw new IOException(cluster.setup().label() + ": job " + spec.index() + " ("
            + spec.benchmark().name() + ") failed: " + job.getStatus().getFailureInfo());
      }
      double hit = hitRatio(cluster, job, ssdBefore, hddBefore, memoryBefore);
      long granted = cluster.localizedGrantedBytes() - grantedBefore;
      long refused = cluster.localizedRefusedBytes() - refusedBefore;
      double localizedOnSsd = !cluster.setup().localized() || granted + refused == 0 ? Double.NaN
          : granted / (double) (granted + refused);
      long[] busyAfter = cluster.hddBusyNanos();
      double hddUtil = Double.NaN;
      double busiestHdd = Double.NaN;
      if (options.emulated()) {
        long sum = 0;
        long most = 0;
        for (int i = 0; i < busyAfter.length; i++) {
          sum += busyAfter[i] - busyBefore[i];
          most = Math.max(most, busyAfter[i] - busyBefore[i]);
        }
        hddUtil = sum / (double) (wallNanos * busyAfter.length);
        busiestHdd = most / (double) wallNanos;
      }
      long lastMapFinish = 0;
      for (TaskReport map : job.getTaskReports(TaskType.MAP)) {
        lastMapFinish = Math.max(lastMapFinish, map.getFinishTime());
      }
      Counters counters = job.getCounters();
      long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
      double dataLocal = maps == 0 ? Double.NaN
          : counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue() / (double) maps;
      long mapsOnSsd = counters.findCounter(CacheLocalityCounter.SSD_INPUT_MAPS).getValue();
      double cacheLocal = mapsOnSsd == 0 ? Double.NaN
          : counters.findCounter(CacheLocalityCounter.CACHE_LOCAL_MAPS).getValue()
              / (double) mapsOnSsd;
      double seconds = (job.getFinishTime() - job.getStartTime()) / 1000.0;
      double mapSeconds = (lastMapFinish - job.getStartTime()) / 1000.0;
      if (options.checkOutputs()) {
        spec.benchmark().check(cluster.jobConf(), input, output);
      }
      fs.delete(output, true);
      JobResult result = new JobResult(cluster.setup(), repeat, spec.index(),
          spec.benchmark().name(), spec.input().source().dirName() + "/k" + spec.input().k(),
          spec.input().bytes(), seconds, mapSeconds, seconds - mapSeconds, hit, hddUtil,
          busiestHdd, cpuBusy, dataLocal, cacheLocal,
          counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(), localizedOnSsd,
          options.checkOutputs());
      log("%s #%d job %d %-22s %-13s %6.1f s (map %5.1f s) hit %4s, HDD busy %4s (busiest %4s),"
          + " machine CPU %4s, data-local maps %4s (cache-local %4s of %d on SSD), shuffle %d MB, localized on SSD %4s, "
          + "%d evictions",
          cluster.setup().label(), repeat, spec.index(), result.benchmark(), result.input(),
          seconds, mapSeconds, Report.percent(hit), Report.percent(hddUtil),
          Report.percent(busiestHdd), Report.percent(cpuBusy), Report.percent(dataLocal),
          Report.percent(cacheLocal), mapsOnSsd,
          result.shuffleBytes() >> 20, Report.percent(localizedOnSsd),
          cluster.cacheCounter(CacheCounter.EVICTIONS) - evictionsBefore);
      results.add(result);
      Files.writeString(csv.toPath(), result.csv() + "\n", StandardOpenOption.APPEND);
    }
    return results;
  }

  /**
   * Copies every data set in, file by file round-robin over the DataNodes (favored nodes), so
   * every configuration and repeat gets the same, balanced placement: with one replica the
   * NameNode's own choice is random per cluster, and a job whose blocks crowd onto one HDD took
   * up to 40 % longer than the same job in another run.
   */
  private void copyInputs(BenchCluster cluster, Path root) throws IOException {
    DistributedFileSystem fs = cluster.fs();
    InetSocketAddress[] nodes = cluster.dataNodeAddresses();
    FileSystem local = FileSystem.getLocal(new Configuration());
    int next = 0;
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dataSet.dir(root);
      fs.mkdirs(dir);
      for (FileStatus file : local.listStatus(dataSet.dir(new Path(inputs.toURI())))) {
        if (file.getPath().getName().startsWith("_")) {
          continue;
        }
        InetSocketAddress node = nodes[next++ % nodes.length];
        try (InputStream in = local.open(file.getPath());
            OutputStream out = fs.create(new Path(dir, file.getPath().getName()),
                FsPermission.getFileDefault(), true, 1 << 16, (short) 1, options.blockBytes(),
                null, new InetSocketAddress[] {node})) {
          IOUtils.copyBytes(in, out, 1 << 16);
        }
      }
    }
  }

  /**
   * Reads the input of every job of the history once, oldest first, with the devices off: each
   * cache sees what those jobs would have shown it, as in the paper's steady state.
   */
  private void warmUp(BenchCluster cluster, Path root, MemoryCachePlanner memory)
      throws IOException {
    FileSystem fs = cluster.fs();
    byte[] buffer = new byte[1 << 20];
    for (JobSpec spec : mix.history()) {
      Path input = spec.input().dir(root);
      if (memory != null) {
        memory.beforeJob(input);
      }
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(input, true);
      while (files.hasNext()) {
        try (InputStream in = fs.open(files.next().getPath())) {
          while (in.read(buffer) >= 0) {
            // the cache under test sees the read; the bytes are not needed
          }
        }
      }
    }
    long inMemory = memory == null ? 0 : memory.awaitCached();
    log("%s: warmed up by %d earlier jobs, %d MB in SSD copies, %d MB cached in memory",
        cluster.setup().label(), mix.history().size(), cluster.ssdCachedBytes() >> 20,
        inMemory >> 20);
    if (cluster.setup().mpCache()) {
      log("%s: %d fills, %d given up, %d background fills dropped, %d evictions; the master holds:",
          cluster.setup().label(), cluster.cacheCounter(CacheCounter.FILLS),
          cluster.cacheCounter(CacheCounter.FILLS_ABORTED),
          cluster.cacheCounter(CacheCounter.BACKGROUND_FILLS_DROPPED),
          cluster.cacheCounter(CacheCounter.EVICTIONS));
      for (String dataSet : cluster.masterDataSets()) {
        log("  %s", dataSet);
      }
    }
  }

  private static double hitRatio(BenchCluster cluster, Job job, long ssdBefore, long hddBefore,
      long memoryBefore) throws IOException {
    switch (cluster.setup()) {
      case STOCK, ALL_SSD:
        return Double.NaN;
      case MEMORY:
        long read = job.getCounters().findCounter("hdfs", FileSystemCounter.BYTES_READ).getValue();
        return read == 0 ? Double.NaN
            : (MemoryCacheAwareFsDatasetFactory.bytesFromMemory() - memoryBefore) / (double) read;
      default:
        long ssd = cluster.cacheCounter(CacheCounter.BYTES_FROM_SSD) - ssdBefore;
        long hdd = cluster.cacheCounter(CacheCounter.BYTES_FROM_HDD) - hddBefore;
        return ssd + hdd == 0 ? Double.NaN : ssd / (double) (ssd + hdd);
    }
  }

  private static void log(String format, Object... args) {
    System.out.printf("[bench] " + format + "%n", args);
    System.out.flush();
  }
}
