package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.locality.CacheLocalityCounter;
import org.mpcache.slave.CacheCounter;

/**
 * One job stream on one cluster: the inputs copied in block by block, the caches warmed by the
 * history's reads (untimed), the timed jobs one after another with the devices on, then every
 * output checked against an oracle computed from the local copy of its input, after the timed
 * window, so no check reads an input through the cache between two timed jobs.
 */
final class JobStream {
  /** Bytes per HDFS checksum chunk: a block size must be a multiple of it. */
  private static final long CHECKSUM_CHUNK = 512;

  /** Prints one line of progress. */
  interface Progress {
    void jobDone(JobResult job, int jobs);
  }

  private final HarnessOptions options;
  private final WorkloadMix mix;
  private final File localInputs;

  JobStream(HarnessOptions options, WorkloadMix mix, File localInputs) {
    this.options = options;
    this.mix = mix;
    this.localInputs = localInputs;
  }

  /** Runs the stream on {@code cluster}; the jobs in order, each output checked. */
  List<JobResult> run(BenchCluster cluster, long seed, Progress progress) throws Exception {
    cluster.emulate(false);
    copyInputs(cluster);
    long memoryBudget = options.memoryBytesPerNode(mix.workingSetBytes()) * options.nodes();
    MemoryCachePlanner memory = cluster.setup() == ClusterSetup.MEMORY
        ? new MemoryCachePlanner(cluster.fs(), memoryBudget) : null;
    Set<DataSet> seen = new HashSet<>();
    if (cluster.setup().warmedUp()) {
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

  private JobResult timed(BenchCluster cluster, long seed, JobSpec spec,
      MemoryCachePlanner memory, boolean firstRead) throws Exception {
    Path input = spec.input().dir(BenchCluster.INPUTS);
    if (memory != null) {
      memory.beforeJob(input);
    }
    Job job = spec.benchmark().createJob(new Configuration(cluster.jobConf()), input,
        output(spec));
    long ssdBefore = cluster.cacheCounter(CacheCounter.BYTES_FROM_SSD);
    long memoryBefore = MemoryCacheAwareFsDatasetFactory.bytesFromMemory();
    long grantedBefore = cluster.localizedGrantedBytes();
    long refusedBefore = cluster.localizedRefusedBytes();
    long[] busyBefore = cluster.hddBusyNanos();
    cluster.emulate(true);
    MachineCpu.Reading cpuBefore = MachineCpu.read();
    boolean ok;
    long wallNanos;
    double busiestInMaps;
    try (HddBusySampler sampler = new HddBusySampler(cluster::hddBusyNanos)) {
      long start = System.nanoTime();
      ok = job.waitForCompletion(false);
      wallNanos = System.nanoTime() - start;
      busiestInMaps = ok ? sampler.busiestShare(job.getStartTime(), lastMapFinish(job))
          : Double.NaN;
    }
    double cpuBusy = MachineCpu.read().busySince(cpuBefore);
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
      // Only the inputs' tree is cached (BenchCluster), so every SSD byte is input.
      default -> share(cluster.cacheCounter(CacheCounter.BYTES_FROM_SSD) - ssdBefore,
          inputBytes);
    };
    long granted = cluster.localizedGrantedBytes() - grantedBefore;
    long refused = cluster.localizedRefusedBytes() - refusedBefore;
    double localizedOnSsd = !cluster.setup().localized() || granted + refused == 0 ? Double.NaN
        : granted / (double) (granted + refused);
    double[] hdd = hddShares(busyBefore, cluster.hddBusyNanos(), wallNanos);
    Counters counters = job.getCounters();
    long maps = counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
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
        localizedOnSsd, firstRead, false);
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

  private static double share(long part, long whole) {
    return whole == 0 ? Double.NaN : Math.min(1, part / (double) whole);
  }

  private static Path output(JobSpec spec) {
    return new Path("/out/" + spec.index());
  }

  /** Checks every output against its input's local copy, devices off; a wrong one stops. */
  private List<JobResult> checked(BenchCluster cluster, List<JobResult> results)
      throws IOException {
    Configuration conf = new Configuration(cluster.jobConf());
    Path local = new Path(localInputs.toURI());
    List<JobResult> checked = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      JobSpec spec = mix.jobs().get(i);
      spec.benchmark().check(conf, spec.input().dir(local), cluster.fs().makeQualified(
          output(spec)));
      checked.add(results.get(i).withOutputChecked());
    }
    return checked;
  }

  /**
   * Copies every data set in, one file (one HDFS block) at a time round-robin over the
   * DataNodes (favored nodes): every configuration gets the same, balanced placement, block by
   * block. With one replica the NameNode's own choice is random per cluster, and a job whose
   * blocks crowd onto one HDD took up to 40 % longer than the same job in another run.
   */
  private void copyInputs(BenchCluster cluster) throws IOException {
    DistributedFileSystem fs = cluster.fs();
    InetSocketAddress[] nodes = cluster.dataNodeAddresses();
    FileSystem local = FileSystem.getLocal(new Configuration());
    int next = 0;
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dataSet.dir(BenchCluster.INPUTS);
      fs.mkdirs(dir);
      FileStatus[] files = local.listStatus(dataSet.dir(new Path(localInputs.toURI())),
          path -> !path.getName().startsWith("_"));
      Arrays.sort(files);
      for (FileStatus file : files) {
        InetSocketAddress node = nodes[next++ % nodes.length];
        // A record may end a little past the block size: the file stays one block.
        long blockBytes = Math.max(options.blockBytes(),
            (file.getLen() + CHECKSUM_CHUNK - 1) / CHECKSUM_CHUNK * CHECKSUM_CHUNK);
        try (InputStream in = local.open(file.getPath());
            OutputStream out = fs.create(new Path(dir, file.getPath().getName()),
                FsPermission.getFileDefault(), true, 1 << 16, (short) 1, blockBytes, null,
                new InetSocketAddress[] {node})) {
          IOUtils.copyBytes(in, out, 1 << 16);
        }
      }
    }
  }

  /**
   * Reads the input of every job of the history once, oldest first, with the devices off: each
   * cache sees what those jobs would have shown it, as in the paper's steady state.
   */
  private void warmUp(BenchCluster cluster, MemoryCachePlanner memory) throws IOException {
    FileSystem fs = cluster.fs();
    byte[] buffer = new byte[1 << 20];
    for (JobSpec spec : mix.history()) {
      Path input = spec.input().dir(BenchCluster.INPUTS);
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
    if (memory != null) {
      memory.awaitCached();
    }
  }
}
