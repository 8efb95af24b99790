package org.mpcache.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.locality.CacheLocalityCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job stream on one cluster: the inputs placed, the caches warmed by the history's reads
 * (untimed), the timed jobs one after another with the devices on, then every output checked
 * against an oracle computed from the local copy of its input, after the timed window, so no
 * check reads an input through the cache between two timed jobs.
 */
final class JobStream {
  /** Marks the stream's steps in the results folder's hadoop.log, between the daemons' lines. */
  private static final Logger LOG = LoggerFactory.getLogger(JobStream.class);

  /** Prints one line of progress. */
  interface Progress {
    void jobDone(JobResult job, int jobs);
  }

  private final HarnessOptions options;
  private final WorkloadMix mix;
  private final StreamInputs inputs;

  JobStream(HarnessOptions options, WorkloadMix mix, StreamInputs inputs) {
    this.options = options;
    this.mix = mix;
    this.inputs = inputs;
  }

  /** Runs the stream on {@code cluster}; the jobs in order, each output checked. */
  List<JobResult> run(StreamCluster cluster, long seed, Progress progress) throws Exception {
    cluster.emulate(false);
    inputs.place(cluster);
    cluster.fs().delete(cluster.outputs(), true);
    long memoryBudget = options.memoryBytesPerNode(mix.workingSetBytes()) * options.nodes();
    MemoryCachePlanner memory = cluster.setup() == ClusterSetup.MEMORY
        ? new MemoryCachePlanner(cluster.fs(), memoryBudget) : null;
    Set<DataSet> seen = new HashSet<>();
    if (cluster.setup().warmedUp()) {
      LOG.info("{}, seed {}: warm-up of {} jobs starts", cluster.setup().label(), seed,
          mix.history().size());
      warmUp(cluster, memory);
      mix.history().forEach(job -> seen.add(job.input()));
    }
    List<JobResult> results = new ArrayList<>();
    for (JobSpec spec : mix.jobs()) {
      JobResult result = timed(cluster, seed, spec, memory, seen.add(spec.input()));
      results.add(result);
      progress.jobDone(result, mix.jobs().size());
    }
    return options.checkOutputs() ? checked(cluster, results) : results;
  }

  private JobResult timed(StreamCluster cluster, long seed, JobSpec spec,
      MemoryCachePlanner memory, boolean firstRead) throws Exception {
    Path input = spec.input().dir(cluster.inputs());
    if (memory != null) {
      memory.beforeJob(input);
    }
    Job job = spec.benchmark().createJob(new Configuration(cluster.jobConf()), input,
        output(cluster, spec));
    Map<String, Long> ssdBefore = cluster.bytesFromSsdByNode();
    long memoryBefore = memory == null ? 0 : MemoryCacheAwareFsDatasetFactory.bytesFromMemory();
    long grantedBefore = cluster.localizedGrantedBytes();
    long refusedBefore = cluster.localizedRefusedBytes();
    long[] busyBefore = cluster.hddBusyNanos();
    long[] causesBefore = cluster.hddBusyNanosByCause();
    LOG.info("{}, seed {}: timed job {} starts ({} on {})", cluster.setup().label(), seed,
        spec.index(), spec.benchmark().name(), input);
    cluster.emulate(true);
    MachineCpu.Reading cpuBefore = MachineCpu.read();
    boolean ok;
    long wallNanos;
    double busiestInMaps;
    long[] leastInputRoom;
    try (JobSampler sampler = new JobSampler(cluster::hddBusyNanos, cluster::inputRoomBytes)) {
      long start = System.nanoTime();
      ok = job.waitForCompletion(false);
      wallNanos = System.nanoTime() - start;
      busiestInMaps = ok ? sampler.busiestShare(job.getStartTime(), lastMapFinish(job))
          : Double.NaN;
      leastInputRoom = sampler.leastInputRoom();
    }
    double cpuBusy = cluster.onThisMachine() ? MachineCpu.read().busySince(cpuBefore)
        : Double.NaN;
    cluster.emulate(false);
    if (!ok) {
      throw new IOException(cluster.setup().label() + ", seed " + seed + ": job "
          + spec.index() + " (" + spec.benchmark().name() + ") failed: "
          + job.getStatus().getFailureInfo());
    }
    long inputBytes = spec.input().bytes();
    double hit = switch (cluster.setup()) {
      case STOCK, ALL_SSD -> Double.NaN;
      case MEMORY -> share(MemoryCacheAwareFsDatasetFactory.bytesFromMemory() - memoryBefore,
          inputBytes);
      // Only the inputs' tree is cached (BenchCluster), so every SSD byte is input; on an
      // existing cluster, other tenants' reads from SSD count too.
      default -> ssdHitRatio(ssdBefore, cluster.bytesFromSsdByNode(), inputBytes);
    };
    long granted = cluster.localizedGrantedBytes() - grantedBefore;
    long refused = cluster.localizedRefusedBytes() - refusedBefore;
    double localizedOnSsd = !cluster.setup().localized() || granted + refused == 0 ? Double.NaN
        : granted / (double) (granted + refused);
    double[] hdd = hddShares(busyBefore, cluster.hddBusyNanos(), wallNanos);
    List<Double> hddSecondsByCause = secondsSince(causesBefore, cluster.hddBusyNanosByCause());
    Counters counters = job.getCounters();
    long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    if (maps == 0) {
      throw new IOException("job " + job.getJobID() + " reports no map task: its counters did not "
          + "reach the client (on an existing cluster, is the JobHistoryServer up?)");
    }
    double dataLocal = maps == 0 ? Double.NaN
        : counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue() / (double) maps;
    long mapsOnSsd = counters.findCounter(CacheLocalityCounter.SSD_INPUT_MAPS).getValue();
    double cacheLocal = mapsOnSsd == 0 ? Double.NaN
        : counters.findCounter(CacheLocalityCounter.CACHE_LOCAL_MAPS).getValue()
            / (double) mapsOnSsd;
    double seconds = (job.getFinishTime() - job.getStartTime()) / 1000.0;
    double mapSeconds = (lastMapFinish(job) - job.getStartTime()) / 1000.0;
    return new JobResult(cluster.setup(), seed, spec.index(), spec.benchmark().name(),
        spec.input().source().dirName() + "/k" + spec.input().k(), inputBytes, seconds,
        mapSeconds, seconds - mapSeconds, hit, hdd[0], hdd[1], busiestInMaps, cpuBusy,
        dataLocal, cacheLocal, counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
        localizedOnSsd, firstRead, false, hddSecondsByCause,
        Arrays.stream(leastInputRoom).boxed().toList(), "");
  }

  /** Seconds of busy time from {@code before} to {@code after}; not measured when empty. */
  private static List<Double> secondsSince(long[] before, long[] after) {
    return after.length == 0 ? JobResult.NOT_MEASURED
        : IntStream.range(0, after.length).mapToObj(i -> (after[i] - before[i]) / 1e9).toList();
  }

  /** Mean and busiest busy share of the HDDs over {@code wallNanos}; NaN when not emulated. */
  private double[] hddShares(long[] before, long[] after, long wallNanos) {
    if (!options.emulated() || after.length == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    long sum = 0;
    long most = 0;
    for (int i = 0; i < after.length; i++) {
      sum += after[i] - before[i];
      most = Math.max(most, after[i] - before[i]);
    }
    return new double[] {sum / (double) (wallNanos * after.length), most / (double) wallNanos};
  }

  private static long lastMapFinish(Job job) throws IOException, InterruptedException {
    long last = job.getStartTime();
    for (TaskReport map : job.getTaskReports(TaskType.MAP)) {
      last = Math.max(last, map.getFinishTime());
    }
    return last;
  }

  /**
   * Bytes served from SSD between two readings per node over {@code inputBytes}; NaN when a node
   * came or went, or its counter fell (a restarted DataNode): the sum would not be the job's.
   */
  static double ssdHitRatio(Map<String, Long> before, Map<String, Long> after,
      long inputBytes) {
    if (!before.keySet().equals(after.keySet())) {
      return Double.NaN;
    }
    long served = 0;
    for (Map.Entry<String, Long> node : after.entrySet()) {
      long delta = node.getValue() - before.get(node.getKey());
      if (delta < 0) {
        return Double.NaN;
      }
      served += delta;
    }
    return share(served, inputBytes);
  }

  private static double share(long part, long whole) {
    return whole == 0 ? Double.NaN : Math.min(1, part / (double) whole);
  }

  private static Path output(StreamCluster cluster, JobSpec spec) {
    return new Path(cluster.outputs(), Integer.toString(spec.index()));
  }

  /** Checks every output against its input's oracle copy, devices off; a wrong one stops. */
  private List<JobResult> checked(StreamCluster cluster, List<JobResult> results)
      throws IOException {
    Configuration conf = new Configuration(cluster.jobConf());
    List<JobResult> checked = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      JobSpec spec = mix.jobs().get(i);
      spec.benchmark().check(conf, inputs.oracle(spec.input()),
          cluster.fs().makeQualified(output(cluster, spec)));
      checked.add(results.get(i).withOutputChecked());
    }
    return checked;
  }

  /**
   * Reads the input of every job of the history once, oldest first, with the devices off: each
   * cache sees what those jobs would have shown it, as in the paper's steady state. The caches
   * settle after each job: without devices the reads outrun the fills and the heartbeats, and
   * the master would hear of them out of order.
   */
  private void warmUp(StreamCluster cluster, MemoryCachePlanner memory) throws IOException {
    FileSystem fs = cluster.fs();
    byte[] buffer = new byte[1 << 20];
    for (JobSpec spec : mix.history()) {
      Path input = spec.input().dir(cluster.inputs());
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
      cluster.settleCaches();
    }
    if (memory != null) {
      memory.awaitCached();
    }
  }
}
