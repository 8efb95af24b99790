package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.RunJar;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every PUMA benchmark as users run it, {@code yarn jar mpcache-puma.jar -conf <cluster> <name>
 * <input> <output>}, on HDFS and YARN mini clusters: a child JVM runs Hadoop's {@link RunJar} on
 * the packaged jar with the cluster's classpath only, so the driver, the job jar and the task
 * classes all come from the jar, and the run must end with exit code 0 and "OK <name>" (its
 * check passed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PumaJobsIT {
  private static final int INPUT_MEGABYTES = 2;
  private static final long JOB_TIMEOUT_SECONDS = 170;
  private static final int CONTAINER_MB = 512;
  /** JVM flags that start small JVMs faster: C1 only, one GC thread. */
  private static final String QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
  private static final String TASK_JVM = "-Xmx384m " + QUICK_JVM;

  private final File buildDir = new File(System.getProperty("test.build.data",
      "target/test-data")).getAbsoluteFile().getParentFile();
  private final File work = new File(buildDir, "puma-it");
  private final List<String> timings = new ArrayList<>();
  private MiniDFSCluster dfs;
  private MiniMRYarnCluster yarn;
  private File clusterConf;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void startClustersAndGenerateInputs() throws Exception {
    FileUtil.fullyDelete(work);
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 1 << 20);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1 << 16);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    // Writers ask again for their next block or to close a file after 50 ms, not 400, ten times
    // (hadoop-hdfs-mpcache's CacheTestCluster.quickWriteRetries, a test jar this module has not).
    conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, 50);
    conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY, 10);
    dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(2).build();
    dfs.waitActive();

    Configuration yarnConf = new Configuration(conf);
    yarnConf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    yarnConf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    yarnConf.setInt(YarnConfiguration.NM_PMEM_MB, 8 * CONTAINER_MB);
    yarnConf.setInt(MRJobConfig.MAP_MEMORY_MB, CONTAINER_MB);
    yarnConf.setInt(MRJobConfig.REDUCE_MEMORY_MB, CONTAINER_MB);
    yarnConf.setInt(MRJobConfig.MR_AM_VMEM_MB, CONTAINER_MB);
    yarnConf.set(MRJobConfig.MAP_JAVA_OPTS, TASK_JVM);
    yarnConf.set(MRJobConfig.REDUCE_JAVA_OPTS, TASK_JVM);
    yarnConf.set(MRJobConfig.MR_AM_COMMAND_OPTS, TASK_JVM);
    // Short heartbeats and polls: a job of a few MB is otherwise mostly waiting.
    yarnConf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
    yarnConf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
    yarnConf.setInt(Job.PROGRESS_MONITOR_POLL_INTERVAL_KEY, 100);
    yarnConf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    // Reducers start with the maps (their JVM start overlaps the maps' work); no speculative
    // attempts competing for the two cores.
    yarnConf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 0);
    yarnConf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    yarnConf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
    // The containers' logs and dirs stay until the next run (-1: the NodeManagers delete
    // nothing), so no log deletion is pending when a NodeManager stops: one scheduled for
    // yarn.nodemanager.log.retain-seconds later has its stop wait 10 s, each in turn.
    yarnConf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    yarnConf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, -1);
    yarn = new MiniMRYarnCluster("puma-it", 2);
    yarn.init(yarnConf);
    yarn.start();

    clusterConf = new File(work, "cluster.xml");
    try (OutputStream out = new FileOutputStream(clusterConf)) {
      yarn.getConfig().writeXml(out);
    }
    for (InputSource source : InputSource.values()) {
      assertEquals(0, ToolRunner.run(new Configuration(yarn.getConfig()), new PumaDriver(),
          new String[] {"generate", source.dirName(), input(source), "" + INPUT_MEGABYTES}));
    }
  }

  @AfterAll
  void stopClusters() {
    System.out.println("yarn jar runs (wall time of the child JVM; the driver's own times):");
    timings.forEach(System.out::println);
    if (yarn != null) {
      yarn.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  Stream<String> benchmarks() {
    return PumaBenchmarks.all().stream().map(PumaBenchmark::name);
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  @Timeout(value = JOB_TIMEOUT_SECONDS + 10, unit = TimeUnit.SECONDS)
  void runsThroughYarnJarAndPassesItsCheck(String name) throws Exception {
    InputSource source = PumaBenchmarks.byName(name).source();
    File log = new File(work, name + ".log");
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    command.addAll(childJvmArguments());
    command.addAll(List.of("-cp", clusterClasspath(), RunJar.class.getName(),
        packagedJar().getPath(), "-conf", clusterConf.getPath(), name, input(source),
        "/out/" + name));
    long start = System.nanoTime();
    Process run = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log)
        .start();
    if (!run.waitFor(JOB_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      run.destroyForcibly();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String output = Files.readString(log.toPath());
    String verdict = output.lines().filter(l -> l.startsWith("OK ") || l.startsWith("FAILED "))
        .collect(Collectors.joining("; "));
    timings.add(String.format(Locale.ROOT, "  %-22s %5.1f s  %s", name, seconds, verdict));
    assertEquals(0, run.isAlive() ? -1 : run.exitValue(), name + " did not succeed (log "
        + log + "):\n" + tail(output));
    assertTrue(output.lines().anyMatch(l -> l.startsWith("OK " + name)), name
        + " printed no OK:\n" + tail(output));
  }

  private static String input(InputSource source) {
    return "/puma/" + source.dirName();
  }

  /** The jar {@code mvn package} built, as {@code yarn jar} would be given it. */
  private File packagedJar() {
    File[] jars = buildDir.listFiles((dir, name) -> name.matches("mpcache-puma-.*\\.jar")
        && !name.matches(".*-(sources|tests|test-sources|javadoc)\\.jar"));
    assertTrue(jars != null && jars.length == 1, "expected one packaged jar in " + buildDir
        + ", found " + Arrays.toString(jars) + " (run the integration tests after package)");
    return jars[0];
  }

  /**
   * The classpath of this JVM without this module's own build output: what a cluster node has
   * (Hadoop and its dependencies). The benchmark classes must come from the packaged jar. Task
   * containers inherit it too: on a mini cluster MapReduce passes the client's classpath on.
   */
  private String clusterClasspath() {
    String module = buildDir.getPath() + File.separator;
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !new File(entry).getAbsolutePath().startsWith(module))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The JVM flags this test runs with (the --add-opens JDK 17 needs), with a client's heap. */
  private List<String> childJvmArguments() {
    List<String> arguments = new ArrayList<>();
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!argument.startsWith("-Xmx")) {
        arguments.add(argument);
      }
    }
    arguments.add("-Xmx512m");
    arguments.addAll(List.of(QUICK_JVM.split(" ")));
    arguments.add("-Djava.io.tmpdir=" + work.getAbsolutePath());
    return arguments;
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
