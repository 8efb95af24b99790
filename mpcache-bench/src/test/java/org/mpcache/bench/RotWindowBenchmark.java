package org.mpcache.bench;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_CAPACITY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_SCRUB_RATE_KEY;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.simulator.Interval;
import org.mpcache.simulator.ToolOptions;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;

/**
 * Rot under an open descriptor (not a test). The DataNode verifies every byte it serves and
 * every copy it hands to a short-circuit reader, but a reader that already holds a copy's files
 * reads them unchecked by it. This measures how long a byte flipped in a copy stays unnoticed
 * before the scrubber drops the copy and revokes its short-circuit slots, against the bound
 * (what the dir holds / the scrub rate), then shows what the NameNode does when a short-circuit
 * reader that held the copy reads the rot, with replication 1 and 2. Run with
 * {@code dev-support/rot-window-benchmark.sh}.
 */
public final class RotWindowBenchmark {
  private static final long POLL_MILLIS = 2;

  private static final ToolOptions OPTIONS = new ToolOptions(
      "dev-support/rot-window-benchmark.sh [options]")
      .valued("cached-mb", "MB", "64", "what the SSD dir holds")
      .valued("block-kb", "KB", "1024", "block size")
      .valued("scrub-mb", "MB", "16", "the scrubber's rate a second")
      .valued("trials", "N", "20", "bytes flipped, one at a time")
      .valued("report", "FILE", "target/bench/rot-window.md", "the Markdown report");

  public static void main(String[] args) throws Exception {
    ToolOptions.Values given = OPTIONS.parse(args);
    int cachedMb = Integer.parseInt(given.value("cached-mb"));
    int blockKb = Integer.parseInt(given.value("block-kb"));
    int scrubMb = Integer.parseInt(given.value("scrub-mb"));
    int trials = Integer.parseInt(given.value("trials"));
    File report = new File(given.value("report"));

    Configuration conf = CacheTestCluster.conf();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockKb * 1024L);
    conf.set(DFS_MPCACHE_CAPACITY_KEY, (2 * cachedMb + 8) + "m");
    conf.setLong(DFS_MPCACHE_SCRUB_RATE_KEY, scrubMb * 1048576L);
    conf.set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY,
        UserGroupInformation.getCurrentUser().getShortUserName());
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 1);
    StringBuilder out = new StringBuilder();
    try (CacheTestCluster cluster = CacheTestCluster.start("rot-window", conf, 3, null)) {
      Path file = new Path("/held");
      cluster.writeOn(file, cachedMb << 20, 1, 0);
      cluster.read(file);
      cluster.waitCached(file);
      double[] windows = windows(cluster, file, trials);
      double boundSeconds = (double) cluster.cache(0).usedBytes() / (scrubMb * 1048576.0);
      out.append(windowReport(cachedMb, blockKb, scrubMb, windows, boundSeconds,
          cluster.cache(0).lastScrubPassMillis()));
      out.append(aftermath(cluster, 1)).append(aftermath(cluster, 2));
    }
    System.out.println(out);
    report.getParentFile().mkdirs();
    Files.writeString(report.toPath(), out.toString());
    System.out.println("report: " + report.getAbsolutePath());
  }

  /** Seconds from a flipped byte to the copy's drop, per trial, at random moments. */
  private static double[] windows(CacheTestCluster cluster, Path file, int trials)
      throws Exception {
    Random random = new Random(16);
    List<LocatedBlock> blocks = cluster.blocks(file);
    double[] seconds = new double[trials];
    for (int trial = 0; trial < trials; trial++) {
      // A random phase of the scrubber's pass when the rot appears.
      Thread.sleep(random.nextInt((int) Math.max(1, cluster.cache(0).lastScrubPassMillis())));
      LocatedBlock block = blocks.get(random.nextInt(blocks.size()));
      File copy = cluster.copyDataFile(block);
      long dropped = cluster.counter(0, CacheCounter.CORRUPT_DROPPED);
      CacheTestCluster.overwrite(copy, random.nextInt((int) copy.length()), 1);
      long start = System.nanoTime();
      while (cluster.counter(0, CacheCounter.CORRUPT_DROPPED) == dropped) {
        Thread.sleep(POLL_MILLIS);
      }
      seconds[trial] = (System.nanoTime() - start) / 1e9;
      System.out.printf(Locale.ROOT, "trial %d: rot noticed after %.2f s%n", trial + 1,
          seconds[trial]);
      cluster.read(file);
      cluster.waitCached(file);
    }
    return seconds;
  }

  private static String windowReport(int cachedMb, int blockKb, int scrubMb, double[] windows,
      double boundSeconds, long lastPassMillis) {
    double[] sorted = windows.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "Machine: %d cores, JDK %s. One DataNode holding %d MB of"
            + " copies in %d KB blocks, scrubbing at %d MB/s; a byte flipped in a random copy at"
            + " a random moment, %d trials.%n%n"
            + "| bound (held / rate) | last full pass | mean (95%% CI) | median | p95 | max |%n"
            + "|---|---|---|---|---|---|%n"
            + "| %.1f s | %.1f s | %s s | %.2f s | %.2f s | %.2f s |%n%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        cachedMb, blockKb, scrubMb, windows.length, boundSeconds, lastPassMillis / 1000.0,
        Interval.ofMean(windows).format("%.2f"), sorted[sorted.length / 2],
        sorted[(int) Math.ceil(0.95 * sorted.length) - 1], sorted[sorted.length - 1]);
  }

  /**
   * A short-circuit reader opens a cached file, the copies rot under it, it reads on: what the
   * client sees, and what the NameNode then does to the (healthy) HDD replicas.
   */
  private static String aftermath(CacheTestCluster cluster, int replication) throws Exception {
    Path file = new Path("/read-under-rot-" + replication);
    byte[] data = cluster.write(file, 2 * 1024 * 1024, 2, (short) replication);
    cluster.fillOnEveryHolder(file);
    LocatedBlock block = cluster.blocks(file).get(0);
    String outcome;
    try (FileSystem local = cluster.shortCircuitClient("under-rot-" + replication);
        FSDataInputStream in = local.open(file)) {
      byte[] first = new byte[1024];
      in.readFully(0, first);
      for (File copy : cluster.copyDataFiles(block)) {
        CacheTestCluster.overwrite(copy, copy.length() - 100, 1);
      }
      try {
        byte[] rest = new byte[(int) block.getBlockSize() - 1024];
        in.readFully(1024, rest);
        outcome = "read on without error (" + (Arrays.equals(rest,
            Arrays.copyOfRange(data, 1024, (int) block.getBlockSize())) ? "right" : "WRONG")
            + " bytes)";
      } catch (IOException e) {
        outcome = "got " + e.getClass().getSimpleName();
      }
    }
    int corruptNow = (int) cluster.mini().getNamesystem().getCorruptReplicaBlocks();
    for (DataNode dn : cluster.mini().getDataNodes()) {
      DataNodeTestUtils.triggerBlockReport(dn);
    }
    // Give the NameNode time to act: with more replicas it re-replicates, then deletes.
    long deadline = System.currentTimeMillis() + 20_000;
    List<String> holders = new ArrayList<>();
    while (System.currentTimeMillis() < deadline) {
      holders.clear();
      for (DatanodeInfo location : cluster.blocks(file).get(0).getLocations()) {
        holders.add(location.getXferAddr());
      }
      if (replication > 1 && cluster.mini().getNamesystem().getCorruptReplicaBlocks() == 0) {
        break;
      }
      Thread.sleep(200);
    }
    boolean sameHolders = holders.size() == block.getLocations().length && Arrays.stream(
        block.getLocations()).map(DatanodeInfo::getXferAddr).allMatch(holders::contains);
    return String.format(Locale.ROOT, "Replication %d: the short-circuit reader %s; the NameNode"
            + " then counted %d block(s) with a corrupt replica, %d after the DataNodes' block"
            + " reports and 20 s; the block's replicas are %s (%s).%n",
        replication, outcome, corruptNow,
        cluster.mini().getNamesystem().getCorruptReplicaBlocks(), holders,
        sameHolders ? "the same nodes as before" : "no longer the same nodes: a replica was"
            + " deleted and re-made elsewhere");
  }
}
