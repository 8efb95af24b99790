package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.mpcache.slave.SlaveMetrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The distribution on real daemons: {@code dev-support/pseudo-cluster.sh} starts a NameNode with
 * the cache master, 3 DataNodes with mpCache, a ResourceManager, 2 NodeManagers and a
 * JobHistoryServer as processes of their own from the unpacked tarball; a PUMA job runs twice
 * through {@code yarn jar} (the driver checks each output), the second reads its input from the
 * SSD copies the first left; the job-stream driver runs the PUMA mix through {@code yarn jar} as
 * on any existing cluster; and {@code stop} leaves no process behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PseudoClusterIT {
  private static final String PUMA_JAR = "share/hadoop/mpcache/jobs/mpcache-puma-"
      + System.getProperty("mpcache.dist.version") + ".jar";
  private static final String BENCH_JAR = "share/hadoop/mpcache/jobs/mpcache-bench-"
      + System.getProperty("mpcache.dist.version") + ".jar";
  private static final int INPUT_MEGABYTES = 8;
  private final File script = new File("../dev-support/pseudo-cluster.sh").getAbsoluteFile();
  private final File dir = new File("target/pseudo-cluster-it").getAbsoluteFile();
  private final File logs = new File("target/pseudo-cluster-it-logs").getAbsoluteFile();

  @BeforeAll
  void start() throws Exception {
    assertTrue(logs.isDirectory() || logs.mkdirs());
    cluster(300, "start");
  }

  @AfterAll
  void stopLeavesNoProcess() throws Exception {
    cluster(120, "stop");
    // pgrep takes an extended regular expression: the folder's special characters escaped.
    String folder = dir.getPath().replaceAll("[\\[\\]\\\\.*^$+?(){}|]", "\\\\$0");
    Process left = new ProcessBuilder("pgrep", "-f", "java .*" + folder + "/")
        .redirectErrorStream(true).start();
    String pids = new String(left.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(left.waitFor(30, TimeUnit.SECONDS));
    assertEquals("", pids.trim(), "processes of the cluster left after stop");
  }

  @Test
  void aPumaJobRunTwiceThroughYarnJarReadsItsSecondInputFromSsd() throws Exception {
    cluster(60, "exec", "hdfs", "dfs", "-ls", "/");
    cluster(300, "exec", "yarn", "jar", PUMA_JAR, "generate", "wikipedia", "/puma/wikipedia",
        "" + INPUT_MEGABYTES);
    assertTrue(cluster(300, "exec", "yarn", "jar", PUMA_JAR, "word-count", "/puma/wikipedia",
        "/out/first").contains("OK word-count"));
    long[] before = servedBytes(System.nanoTime());
    assertTrue(cluster(300, "exec", "yarn", "jar", PUMA_JAR, "word-count", "/puma/wikipedia",
        "/out/second").contains("OK word-count"));
    long[] after = servedBytes(System.nanoTime());
    long fromSsd = after[0] - before[0];
    long fromHdd = after[1] - before[1];
    // The run's reads of HDFS: its maps' input, the driver's output check (which reads the input
    // again) and the job's own files (jar, configuration, splits; never cached).
    assertTrue(fromSsd >= 0.8 * (fromSsd + fromHdd), "second run: " + fromSsd
        + " bytes from SSD, " + fromHdd + " from HDD");
    assertTrue(fromSsd >= INPUT_MEGABYTES << 20, fromSsd + " bytes from SSD");

    // Tasks wrote intermediate data to the SSD, each proving its job with the key the
    // NodeManagers' MpCacheShuffleHandler relayed (docs/security.md); none was refused.
    long granted = 0;
    for (int node = 1; node <= 2; node++) {
      JsonNode slave = slaveMetrics(node);
      assertEquals(0, slave.get("LocalizedCallsRefused").asLong(), slave.toString());
      granted += slave.get("LocalizedGrantedBytes").asLong();
    }
    assertTrue(granted > 0, "no SSD grant to a task");
  }

  /** The cache slave's metrics of DataNode {@code node}, from its JMX servlet. */
  private JsonNode slaveMetrics(int node) throws Exception {
    Configuration site = new Configuration(false);
    site.addResource(new org.apache.hadoop.fs.Path(
        new File(dir, "conf-datanode" + node + "/hdfs-site.xml").toURI()));
    URL jmx = URI.create("http://" + site.get("dfs.datanode.http.address")
        + "/jmx?qry=Hadoop:service=DataNode,name=" + SlaveMetrics.sourceName("*")).toURL();
    try (InputStream in = jmx.openStream()) {
      JsonNode beans = new ObjectMapper().readTree(in).get("beans");
      assertEquals(1, beans.size(), "one slave on DataNode " + node + ": " + beans);
      return beans.get(0);
    }
  }

  /**
   * The workload driver as an operator runs it on an existing cluster: {@code yarn jar} on its
   * jar in the distribution, inputs generated there by its MapReduce job, the timed jobs'
   * counters and the master's figures in the report, every output checked.
   */
  @Test
  void theJobStreamRunsThroughYarnJarAndReportsEachJob() throws Exception {
    File report = new File(logs, "stream-report");
    FileUtil.fullyDelete(report);
    String printed = cluster(600, "exec", "yarn", "jar", BENCH_JAR, "--cluster", "existing",
        "--hdfs-dir", "/stream", "--configs", "mpcache", "--seeds", "1", "--history", "1",
        "--jobs", "1", "--max-k", "1", "--base-mb", "2", "--block-mb", "1", "--benchmarks",
        "word-count,grep", "--report-dir", report.getPath(), "--work-dir",
        new File(logs, "stream-work").getPath());
    assertTrue(printed.contains("Report: "), printed);
    List<String> lines = Files.readAllLines(new File(report, "runs/seed-1-mpcache.csv").toPath());
    List<String> header = List.of(lines.get(0).split(","));
    assertEquals(2, lines.size(), "a header and a line for the timed job: " + lines);
    for (String line : lines.subList(1, lines.size())) {
      String[] job = line.split(",", -1);
      assertEquals("mpcache", job[header.indexOf("configuration")], line);
      assertEquals("true", job[header.indexOf("output_checked")], line);
      // From the job's counters and the master's report: numbers, not blanks.
      for (String column : List.of("seconds", "map_seconds", "hit_ratio", "data_local_maps",
          "shuffle_bytes")) {
        double value = Double.parseDouble(job[header.indexOf(column)]);
        assertTrue(value >= 0, column + " in " + line);
      }
      assertTrue(Double.parseDouble(job[header.indexOf("shuffle_bytes")]) > 0, line);
      // The timed job's input was read in the warm-up: the SSD copies serve it.
      assertEquals("false", job[header.indexOf("first_read")], line);
      assertTrue(Double.parseDouble(job[header.indexOf("hit_ratio")]) >= 0.8, line);
    }
  }

  /** A stream labelled stock on a cluster whose cache master answers is refused before it runs. */
  @Test
  void theJobStreamRefusesALabelTheClusterDoesNotRun() throws Exception {
    File report = new File(logs, "stock-report");
    FileUtil.fullyDelete(report);
    Run run = script(120, "exec", "yarn", "jar", BENCH_JAR, "--cluster", "existing",
        "--configs", "stock", "--report-dir", report.getPath(),
        "--work-dir", new File(logs, "stream-work").getPath());
    assertTrue(run.exit() > 0, run.describe());
    assertTrue(run.err().contains("but the cluster runs mpCache"), run.describe());
  }

  /**
   * Bytes the slaves served from SSD copies and from HDD replicas, summed over the DataNodes, as
   * {@code hdfs mpcacheadmin -report -json} shows them once every slave has heartbeated after
   * {@code sinceNanos} (so the figures include every read before).
   */
  private long[] servedBytes(long sinceNanos) throws Exception {
    long[] bytes = new long[2];
    GenericTestUtils.waitFor(() -> {
      try {
        JsonNode report = report();
        long sinceMillis = (System.nanoTime() - sinceNanos) / 1_000_000;
        bytes[0] = 0;
        bytes[1] = 0;
        for (JsonNode node : report.get("nodes")) {
          if (node.get("lastHeartbeatMillisAgo").asLong() >= sinceMillis) {
            return false;
          }
          bytes[0] += node.get("usage").get("bytesFromSsd").asLong();
          bytes[1] += node.get("usage").get("bytesFromHdd").asLong();
        }
        return report.get("nodes").size() == 3;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, 1000, 60_000, "every slave to heartbeat");
    return bytes;
  }

  /**
   * The shared site files name no mpCache class that a process without mpCache's jars would have
   * to load (docs/operations.md, "Processes without the jars"): Hadoop's own shell, on Hadoop's
   * jars alone, reads HDFS with them.
   */
  @Test
  void aClientWithoutMpCachesJarsReadsHdfsWithTheSharedSiteFiles() throws Exception {
    File local = new File(logs, "plain.txt");
    Files.writeString(local.toPath(), "read without mpCache\n");
    cluster(60, "exec", "hdfs", "dfs", "-mkdir", "-p", "/plain");
    cluster(60, "exec", "hdfs", "dfs", "-put", "-f", local.getPath(), "/plain/f");
    Process cat = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java")
        .getPath(), "-cp", new File(dir, "conf") + File.pathSeparator
        + new File(dir, "hadoop/share/hadoop/common/lib/*"), "org.apache.hadoop.fs.FsShell",
        "-cat", "/plain/f").redirectErrorStream(true).start();
    String output = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(cat.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, cat.exitValue(), output);
    assertTrue(output.contains("read without mpCache"), output);
  }

  private JsonNode report() throws Exception {
    JsonNode report = new ObjectMapper().readTree(
        cluster(60, "exec", "hdfs", "mpcacheadmin", "-report", "-json"));
    assertEquals("active", report.get("state").asText(), report.toString());
    return report;
  }

  /**
   * Runs the script with {@code --dir}; returns what it printed on stdout (kept in a log beside
   * its stderr) or fails with both.
   */
  private String cluster(int timeoutSeconds, String... arguments) throws Exception {
    Run run = script(timeoutSeconds, arguments);
    assertEquals(0, run.exit(), run.describe());
    return run.out();
  }

  /** What a run of the script printed, and how it ended (-1: killed at its timeout). */
  private record Run(String command, int exit, String out, String err) {
    String describe() {
      return command + (exit < 0 ? " did not end in time" : " exited " + exit) + ":\n" + out
          + err;
    }
  }

  private Run script(int timeoutSeconds, String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", script.getPath(), "--dir",
        dir.getPath()));
    command.addAll(List.of(arguments));
    String name = String.join("-", arguments).replaceAll("[^A-Za-z0-9.-]", "_")
        .replaceAll("_+", "_");
    name = name.substring(0, Math.min(name.length(), 120));
    File log = new File(logs, name + ".out");
    File errors = new File(logs, name + ".err");
    Process process = new ProcessBuilder(command).redirectOutput(log).redirectError(errors)
        .start();
    boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    return new Run(String.join(" ", command), ended ? process.exitValue() : -1,
        Files.readString(log.toPath()), Files.readString(errors.toPath()));
  }
}
