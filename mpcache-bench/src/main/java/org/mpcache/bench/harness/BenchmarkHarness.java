package org.mpcache.bench.harness;

import static org.mpcache.tools.CommandLine.option;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.mpcache.bench.device.DeviceProfile;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.puma.PumaBenchmarks;
import org.mpcache.slave.CacheCounter;

/**
 * Runs the PUMA mix on the same embedded cluster shape under every configuration to compare,
 * with the same data and devices, and writes the results folder (raw CSV, Markdown summary,
 * HTML charts). Usage: see {@link #USAGE} or {@code dev-support/puma-benchmark.sh --help}.
 */
public final class BenchmarkHarness {
  static final String USAGE = """
      dev-support/puma-benchmark.sh [options]
        --configs stock,memory,all-ssd,mpcache,mpcache-lru,mpcache-lfu,mpcache-mru
                              configurations; the first is the baseline of the speedups
        --jobs 8              jobs in the mix          --repeats 2   runs of each configuration
        --s 1                 Zipf parameter (Eq. 3)   --max-k 4     largest input scale k
        --base-mb 12          input MB at k = 1        --seed 1      seed of the mix and data
        --nodes 3             DataNode+NodeManager pairs   --block-mb 4   HDFS block size
        --containers 2        task containers per node
        --hdd 6MB/s,8ms,512KB  --ssd 24MB/s,0.1ms,512KB   emulated device profiles
        --real-devices        no emulation: put --work-dir on the HDD mount, --ssd-dir on the SSD
        --ssd-share 0.25      SSD cache over all nodes, as a share of the working set
        --memory-share 0.15   in-memory cache, as a share of the SSD cache (paper: 12 GB / 80 GB)
        --no-check            skip the output checks
        --work-dir target/bench/work  --ssd-dir <dir>  --report-dir target/bench/puma-<time>
      """;

  private final HarnessOptions options;
  private final WorkloadMix mix;
  private final File inputs;

  BenchmarkHarness(HarnessOptions options) {
    this.options = options;
    this.mix = new WorkloadMix(PumaBenchmarks.all(), options.jobs(), options.zipfS(),
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
        Long.parseLong(option(args, "--block-mb", "4")) << 20,
        Integer.parseInt(option(args, "--jobs", "8")),
        Double.parseDouble(option(args, "--s", "1")),
        Integer.parseInt(option(args, "--max-k", "4")),
        (long) (Double.parseDouble(option(args, "--base-mb", "12")) * (1 << 20)),
        Long.parseLong(option(args, "--seed", "1")),
        Integer.parseInt(option(args, "--repeats", "2")),
        Arrays.stream(option(args, "--configs",
            "stock,memory,all-ssd,mpcache,mpcache-lru,mpcache-lfu,mpcache-mru").split(","))
            .map(ClusterSetup::of).toList(),
        real ? null : DeviceProfile.parse(option(args, "--hdd", "6MB/s,8ms,512KB")),
        real ? null : DeviceProfile.parse(option(args, "--ssd", "24MB/s,0.1ms,512KB")),
        Double.parseDouble(option(args, "--ssd-share", "0.25")),
        Double.parseDouble(option(args, "--memory-share",
            Double.toString(HarnessOptions.PAPER_MEMORY_SHARE))),
        new File(option(args, "--work-dir", "target/bench/work")).getAbsoluteFile(),
        ssdDir == null ? null : new File(ssdDir).getAbsoluteFile(),
        Integer.parseInt(option(args, "--containers", "2")),
        !Arrays.asList(args).contains("--no-check"));
    File reportDir = new File(option(args, "--report-dir",
        "target/bench/puma-" + System.currentTimeMillis() / 1000)).getAbsoluteFile();
    List<JobResult> results = new BenchmarkHarness(options).run();
    Report report = new Report(options, results);
    report.write(reportDir);
    System.out.println(report.summaryMarkdown());
    System.out.println("Report: " + new File(reportDir, "summary.md"));
    System.out.println("Charts: " + new File(reportDir, "report.html"));
  }

  List<JobResult> run() throws Exception {
    long workingSet = mix.workingSetBytes();
    long ssdPerNode = (long) Math.ceil(workingSet * options.ssdShare() / options.nodes());
    long memoryPerNode = (long) (ssdPerNode * options.memoryShare());
    log("mix of %d jobs over %d data sets, working set %d MB; SSD cache %d MB per node, "
        + "in-memory cache %d MB per node", mix.jobs().size(), mix.dataSets().size(),
        workingSet >> 20, ssdPerNode >> 20, memoryPerNode >> 20);
    generateInputs();
    List<JobResult> results = new ArrayList<>();
    for (int repeat = 1; repeat <= options.repeats(); repeat++) {
      for (ClusterSetup setup : options.setups()) {
        File runDir = new File(options.workDir(), "run-" + setup.label() + "-" + repeat);
        FileUtils.deleteQuietly(runDir);
        try (BenchCluster cluster =
            BenchCluster.start(setup, options, ssdPerNode, memoryPerNode, runDir)) {
          results.addAll(runMix(cluster, repeat, memoryPerNode * options.nodes()));
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

  private List<JobResult> runMix(BenchCluster cluster, int repeat, long memoryBudget)
      throws Exception {
    FileSystem fs = cluster.fs();
    Path root = new Path("/puma");
    cluster.emulate(false);
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dataSet.dir(root);
      fs.mkdirs(dir.getParent());
      fs.copyFromLocalFile(false, true, dataSet.dir(new Path(inputs.toURI())), dir);
      fs.delete(new Path(dir, "_COMPLETE"), false);
    }
    MemoryCachePlanner memory = cluster.setup() == ClusterSetup.MEMORY
        ? new MemoryCachePlanner(cluster.fs(), memoryBudget) : null;
    List<JobResult> results = new ArrayList<>();
    for (JobSpec spec : mix.jobs()) {
      Path input = spec.input().dir(root);
      Path output = new Path("/out/" + spec.index());
      if (memory != null) {
        memory.beforeJob(input, spec.input().bytes());
      }
      Job job = spec.benchmark().createJob(new Configuration(cluster.jobConf()), input, output);
      long ssdBefore = cluster.cacheCounter(CacheCounter.BYTES_FROM_SSD);
      long hddBefore = cluster.cacheCounter(CacheCounter.BYTES_FROM_HDD);
      long memoryBefore = MemoryCacheAwareFsDatasetFactory.bytesFromMemory();
      long busyBefore = cluster.hddBusyNanos();
      cluster.emulate(true);
      long start = System.nanoTime();
      boolean ok = job.waitForCompletion(false);
      long wallNanos = System.nanoTime() - start;
      cluster.emulate(false);
      if (!ok) {
        throw new IOException(cluster.setup().label() + ": job " + spec.index() + " ("
            + spec.benchmark().name() + ") failed: " + job.getStatus().getFailureInfo());
      }
      double hit = hitRatio(cluster, job, ssdBefore, hddBefore, memoryBefore);
      double hddUtil = options.emulated() ? (cluster.hddBusyNanos() - busyBefore)
          / (double) (wallNanos * cluster.hddCount()) : Double.NaN;
      long lastMapFinish = 0;
      for (TaskReport map : job.getTaskReports(TaskType.MAP)) {
        lastMapFinish = Math.max(lastMapFinish, map.getFinishTime());
      }
      double seconds = (job.getFinishTime() - job.getStartTime()) / 1000.0;
      double mapSeconds = (lastMapFinish - job.getStartTime()) / 1000.0;
      if (options.checkOutputs()) {
        spec.benchmark().check(cluster.jobConf(), input, output);
      }
      fs.delete(output, true);
      JobResult result = new JobResult(cluster.setup(), repeat, spec.index(),
          spec.benchmark().name(), spec.input().source().dirName() + "/k" + spec.input().k(),
          spec.input().bytes(), seconds, mapSeconds, seconds - mapSeconds, hit, hddUtil,
          options.checkOutputs());
      log("%s #%d job %d %-22s %-16s %6.1f s (map %5.1f s) hit %s hdd busy %s",
          cluster.setup().label(), repeat, spec.index(), result.benchmark(), result.input(),
          seconds, mapSeconds, Report.percent(hit), Report.percent(hddUtil));
      results.add(result);
    }
    return results;
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
