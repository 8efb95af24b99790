package org.mpcache.bench;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_CAPACITY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_ENABLED_KEY;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.simulator.Interval;
import org.mpcache.simulator.ToolOptions;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;

/**
 * Read benchmark of the DataNode input cache (not a test): cache-hit read throughput through
 * HDFS, remote (BlockSender) and legacy short-circuit, against the raw sequential read bandwidth
 * of the SSD dir's own files, all in one run on this machine with the page cache dropped before
 * every pass. Run with {@code dev-support/read-benchmark.sh}.
 */
public final class ReadBenchmark {
  private static final int BUFFER = 1 << 20;
  private static final long SETTLE_MILLIS = 10_000;

  private static final ToolOptions OPTIONS = new ToolOptions(
      "dev-support/read-benchmark.sh [options]")
      .valued("size-mb", "MB", "1024", "the file read, cached on SSD")
      .valued("block-mb", "MB", "128", "block size")
      .valued("rounds", "N", "5", "passes of each kind of read")
      .valued("report", "FILE", "target/bench/read-benchmark.md", "the Markdown report");

  public static void main(String[] args) throws Exception {
    ToolOptions.Values given = OPTIONS.parse(args);
    long sizeMb = Long.parseLong(given.value("size-mb"));
    int blockMb = Integer.parseInt(given.value("block-mb"));
    int rounds = Integer.parseInt(given.value("rounds"));
    File report = new File(given.value("report"));

    Configuration conf = CacheTestCluster.conf();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, (long) blockMb << 20);
    conf.set(DFS_MPCACHE_CAPACITY_KEY, (sizeMb * 2) + "m");
    conf.set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY,
        UserGroupInformation.getCurrentUser().getShortUserName());
    long bytes = sizeMb << 20;
    Path file = new Path("/bench");

    // Stock Hadoop on the same device: the reads a cache hit replaces.
    Configuration stockConf = new Configuration(conf);
    stockConf.setBoolean(DFS_MPCACHE_ENABLED_KEY, false);
    List<double[]> stock = new ArrayList<>();
    try (CacheTestCluster cluster = CacheTestCluster.start("read-benchmark-stock", stockConf, 1,
        null); FileSystem shortCircuit = legacyShortCircuitClient(cluster.fs())) {
      warmUp(cluster.fs());
      writeRandom(cluster.fs(), file, bytes);
      settle();
      File hdd = new File(cluster.baseDir(), "dfs");
      for (int round = 0; round < rounds; round++) {
        dropPageCache(hdd);
        double remote = mbPerSecond(bytes, () -> readAll(cluster.fs(), file));
        dropPageCache(hdd);
        double local = mbPerSecond(bytes, () -> readAll(shortCircuit, file));
        stock.add(new double[] {remote, local});
        System.out.printf("stock round %d: remote %.0f MB/s, short-circuit %.0f MB/s%n",
            round + 1, remote, local);
      }
    }

    List<double[]> cached = new ArrayList<>();
    double fill;
    try (CacheTestCluster cluster = CacheTestCluster.start("read-benchmark", conf, 1, null);
        FileSystem shortCircuit = legacyShortCircuitClient(cluster.fs())) {
      warmUp(cluster.fs());
      writeRandom(cluster.fs(), file, bytes);
      settle();
      File ssd = new File(cluster.baseDir(), "ssd0");
      dropPageCache(new File(cluster.baseDir(), "dfs"));
      fill = mbPerSecond(bytes, () -> readAll(cluster.fs(), file));
      cluster.waitCached(file);
      settle();
      long hitsBefore = cluster.counter(0, CacheCounter.HITS);
      long fromSsdBefore = cluster.counter(0, CacheCounter.BYTES_FROM_SSD);
      List<File> copies = copyFiles(ssd);
      for (int round = 0; round < rounds; round++) {
        dropPageCache(ssd);
        double raw = mbPerSecond(bytes, () -> copies.forEach(ReadBenchmark::readFile));
        dropPageCache(ssd);
        double remote = mbPerSecond(bytes, () -> readAll(cluster.fs(), file));
        dropPageCache(ssd);
        double local = mbPerSecond(bytes, () -> readAll(shortCircuit, file));
        cached.add(new double[] {raw, remote, local});
        System.out.printf("mpCache round %d: raw SSD dir %.0f MB/s, remote hit %.0f MB/s,"
            + " short-circuit hit %.0f MB/s%n", round + 1, raw, remote, local);
      }
      // Every remote pass must have been all hits; short-circuit readers were handed SSD paths.
      long blocks = cluster.blocks(file).size();
      if (cluster.counter(0, CacheCounter.HITS) - hitsBefore < rounds * blocks
          || cluster.counter(0, CacheCounter.BYTES_FROM_SSD) - fromSsdBefore < rounds * bytes) {
        throw new IllegalStateException("some benchmark reads were not cache hits");
      }
    }
    String table = report(sizeMb, blockMb, fill, stock, cached);
    System.out.println(table);
    report.getParentFile().mkdirs();
    Files.writeString(report.toPath(), table);
    System.out.println("report: " + report.getAbsolutePath());
  }

  private static String report(long sizeMb, int blockMb, double fill, List<double[]> stock,
      List<double[]> cached) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Machine: %d cores, JDK %s, %s. File: %d MB in %d MB"
            + " blocks, one DataNode, client in the same JVM over loopback. SSD dir and HDD data"
            + " dir are on the same (virtual) device, not emulated: this compares the serving"
            + " paths with the raw bandwidth of the very files they read. Page cache dropped"
            + " before every pass.%n%n",
            Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
            System.getProperty("os.name"), sizeMb, blockMb))
        .append(String.format(Locale.ROOT, "First mpCache read (miss that fills the cache):"
            + " %.0f MB/s; stock first read: %.0f MB/s.%n%n", fill, stock.get(0)[0]))
        .append("| round | raw SSD dir read | stock remote read | mpCache remote hit | hit / raw"
            + " | stock short-circuit | mpCache short-circuit hit | hit / raw |\n"
            + "|---|---|---|---|---|---|---|---|\n");
    List<double[]> rows = new ArrayList<>();
    for (int i = 0; i < cached.size(); i++) {
      double[] r = {cached.get(i)[0], stock.get(i)[0], cached.get(i)[1], stock.get(i)[1],
          cached.get(i)[2]};
      rows.add(r);
      row(out, Integer.toString(i + 1), r);
    }
    double[] median = new double[5];
    for (int k = 0; k < median.length; k++) {
      final int column = k;
      double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
      median[k] = values[values.length / 2];
    }
    row(out, "median", median);
    double[] remoteRatios = rows.stream().mapToDouble(r -> 100 * r[2] / r[0]).toArray();
    double[] localRatios = rows.stream().mapToDouble(r -> 100 * r[4] / r[0]).toArray();
    out.append(String.format(Locale.ROOT, "%nHit / raw, mean over the rounds with its 95 %%"
            + " confidence interval: remote %s %%, short-circuit %s %%.%n",
        Interval.ofMean(remoteRatios).format("%.0f"), Interval.ofMean(localRatios).format("%.0f")))
        .append("\nAll figures in MB/s.\n");
    return out.toString();
  }

  private static void row(StringBuilder out, String label, double[] r) {
    out.append(String.format(Locale.ROOT,
        "| %s | %.0f | %.0f | %.0f | %.0f %% | %.0f | %.0f | %.0f %% |%n",
        label, r[0], r[1], r[2], 100 * r[2] / r[0], r[3], r[4], 100 * r[4] / r[0]));
  }

  /**
   * Writes everything back and gives the device a pause: on a virtual disk the host goes on
   * flushing after {@code sync} returns, which would slow whichever pass comes next.
   */
  private static void settle() throws IOException, InterruptedException {
    run("sync");
    Thread.sleep(SETTLE_MILLIS);
  }

  /** Runs the read paths once on another file, so that no measured pass pays the JIT's start. */
  private static void warmUp(FileSystem fs) throws IOException {
    Path warmUp = new Path("/warm-up");
    writeRandom(fs, warmUp, 64L << 20);
    readAll(fs, warmUp);
    readAll(fs, warmUp);
  }

  private static void writeRandom(FileSystem fs, Path file, long bytes) throws IOException {
    byte[] chunk = new byte[BUFFER];
    java.util.Random random = new java.util.Random(42);
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(file, (short) 1)) {
      for (long written = 0; written < bytes; written += chunk.length) {
        random.nextBytes(chunk);
        out.write(chunk, 0, (int) Math.min(chunk.length, bytes - written));
      }
    }
  }

  private static FileSystem legacyShortCircuitClient(FileSystem fs) throws IOException {
    Configuration conf = new Configuration(fs.getConf());
    conf.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, "benchmark-short-circuit");
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY, true);
    conf.setBoolean(HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL, true);
    return FileSystem.newInstance(fs.getUri(), conf);
  }

  private interface Pass {
    void run() throws IOException;
  }

  private static double mbPerSecond(long bytes, Pass pass) throws IOException {
    long start = System.nanoTime();
    pass.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    return bytes / 1048576.0 / seconds;
  }

  private static void readAll(FileSystem fs, Path file) throws IOException {
    byte[] buffer = new byte[BUFFER];
    try (FSDataInputStream in = fs.open(file)) {
      while (in.read(buffer) > 0) {
        // reading is the work measured
      }
    }
  }

  /** Sequential buffered read of one file, as the DataNode reads a copy. */
  private static void readFile(File file) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    try (FileChannel channel = FileChannel.open(file.toPath(), StandardOpenOption.READ)) {
      while (channel.read(buffer) > 0) {
        buffer.clear();
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<File> copyFiles(File ssd) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(ssd.toPath())) {
      return files.map(java.nio.file.Path::toFile)
          .filter(f -> f.isFile() && f.getName().startsWith("blk_") && !f.getName().endsWith(".meta"))
          .sorted().collect(Collectors.toList());
    }
  }

  /** Writes back dirty pages, then evicts every file under {@code root} from the page cache. */
  private static void dropPageCache(File root) throws IOException {
    run("sync");
    try (Stream<java.nio.file.Path> files = Files.walk(root.toPath())) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files.filter(Files::isRegularFile)::iterator) {
        run("dd", "if=" + f, "iflag=nocache", "count=0", "status=none");
      }
    }
  }

  private static void run(String... command) throws IOException {
    try {
      int rc = new ProcessBuilder(command).inheritIO().start().waitFor();
      if (rc != 0) {
        throw new IOException(String.join(" ", command) + " exited with " + rc);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
