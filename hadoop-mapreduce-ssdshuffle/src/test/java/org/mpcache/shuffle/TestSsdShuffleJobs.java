package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapred.SsdMapOutputCollector;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.InverseMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.task.reduce.SsdShuffle;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.spacetuner.SpaceTuner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sorting jobs with a shuffle larger than the node's SSD share, on one DataNode whose cache slave
 * owns a localized dir and one NodeManager that lists that dir among its local dirs (the fourth
 * of MiniMRYarnCluster's local dirs is a link to it, as an operator would list the SSD mount).
 * The SSD cache of 8 blocks of 2 MB is split into 64 units: 16 input, 32 pool, 16 localized; the
 * job's four maps and its reduce write about twice what localized data may fill (12 MB).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class TestSsdShuffleJobs {
  private static final Logger LOG = LoggerFactory.getLogger(TestSsdShuffleJobs.class);
  private static final int BLOCK = 2 << 20;
  private static final int LINES_PER_FILE = 60_000;
  private static final int FILES = 4;
  private static final Pattern MAP_ATTEMPT = Pattern.compile("attempt_\\d+_\\d+_m_\\d+_\\d+");

  private final File work = GenericTestUtils.getTestDir("ssdshuffle");
  private MiniDFSCluster dfs;
  private MiniMRYarnCluster yarn;
  private File localized;
  private SmallDevice localizedDevice;

  @BeforeAll
  void startClusters() throws Exception {
    FileUtil.fullyDelete(work);
    localized = new File(work, "ssd/localized");
    // A device of its own, where a test can fill the SSD (32 MB: more than localized data may
    // hold, so that only the tests that fill it find it full); none without root.
    localizedDevice = SmallDevice.tryMount(localized, 32);
    Configuration conf = CacheTestCluster.quickWriteRetries(new Configuration());
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.set(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, DATASET_FACTORY_CLASS);
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
    conf.set(DFS_MPCACHE_DIRS_KEY, mkdirs(new File(work, "ssd/cache")).getAbsolutePath());
    // Localized data may hold half of the 16 MB cache: 8 MB, less than a sort of the input
    // shuffles (about 11 MB), so that even a job alone on the node overflows to the HDD dirs.
    conf.setLong(DFS_MPCACHE_CAPACITY_KEY, 8L * BLOCK);
    conf.set(DFS_MPCACHE_POOL_SHARE_KEY, "0.25");
    conf.set(DFS_MPCACHE_LOCALIZED_SHARE_KEY, "0.25");
    conf.set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, localized.getAbsolutePath());
    conf.set(DFS_MPCACHE_LOCALIZED_SCAN_KEY, "200ms");
    conf.set(DFS_MPCACHE_LOCALIZED_LEASE_KEY, "3s");
    // Tasks prove their job (docs/security.md): the DataNode and the NodeManager share the
    // relay secret, in a file only their user reads.
    Path relaySecret = mkdirs(work).toPath().resolve("relay-secret");
    Files.writeString(relaySecret, "relay-secret-of-the-test-cluster\n");
    Files.setPosixFilePermissions(relaySecret, PosixFilePermissions.fromString("r--------"));
    conf.set(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY, relaySecret.toString());
    dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(1).build();
    dfs.waitActive();

    Configuration yarnConf = new Configuration(conf);
    yarnConf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    yarnConf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    yarnConf.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
    yarnConf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
    // Task and application master JVMs that start fast (C1 only, one GC thread): on 2 cores
    // their start is most of a small job.
    String quickJvm = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    yarnConf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m " + quickJvm);
    yarnConf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx256m " + quickJvm);
    yarnConf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx384m " + quickJvm);
    yarnConf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
    yarnConf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
    // The client learns of a job's end within 100 ms, not the default 5 s.
    yarnConf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    yarnConf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
    // The disk checker looks at the local dirs every second, not every two minutes: a dir a
    // test filled is back in use soon after it has room.
    yarnConf.setLong(YarnConfiguration.NM_DISK_HEALTH_CHECK_INTERVAL_MS, 1_000);
    // What an operator sets in mapred-site.xml to put localized data on the SSD.
    yarnConf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR,
        SsdMapOutputCollector.class.getName() + "," + MapTask.MapOutputBuffer.class.getName());
    yarnConf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SsdShuffle.class.getName());
    // And in yarn-site.xml, the shuffle service that relays each job's key to the slave.
    yarnConf.setClass(RelayingMiniMRYarnCluster.SHUFFLE_CLASS_KEY, MpCacheShuffleHandler.class,
        Service.class);
    yarn = new RelayingMiniMRYarnCluster();
    // The NodeManager's fourth local dir (MiniYARNCluster names them <name>-localDir-nm-0_<i>)
    // is the slave's localized dir, as yarn.nodemanager.local-dirs would list the SSD.
    Files.createSymbolicLink(new File(mkdirs(yarn.getTestWorkDir()), "ssdshuffle-localDir-nm-0_3")
        .toPath(), localized.toPath());
    yarn.init(yarnConf);
    yarn.start();
    writeInput("/in", LINES_PER_FILE);
  }

  /**
   * MiniMRYarnCluster names the stock ShuffleHandler as the NodeManager's shuffle service; an
   * operator names mpCache's in yarn-site.xml, so this cluster keeps the name it is given. Should
   * MiniMRYarnCluster set it otherwise, no job key reaches the slave and every grant test fails.
   */
  private static final class RelayingMiniMRYarnCluster extends MiniMRYarnCluster {
    private static final String SHUFFLE_CLASS_KEY = String.format(
        YarnConfiguration.NM_AUX_SERVICE_FMT, ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID);

    RelayingMiniMRYarnCluster() {
      super("ssdshuffle", 1);
    }

    @Override
    public void serviceInit(Configuration conf) throws Exception {
      super.serviceInit(new Configuration(conf) {
        @Override
        public void setClass(String name, Class<?> theClass, Class<?> xface) {
          if (!name.equals(SHUFFLE_CLASS_KEY)) {
            super.setClass(name, theClass, xface);
          }
        }
      });
    }
  }

  @AfterAll
  void stopClusters() throws Exception {
    try {
      if (yarn != null) {
        yarn.stop();
      }
      if (dfs != null) {
        dfs.shutdown();
      }
    } finally {
      if (localizedDevice != null) {
        localizedDevice.close();
      }
    }
  }

  private static File mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    return dir;
  }

  private SpaceTuner tuner() {
    return ((MpCacheFsDataset) dfs.getDataNodes().get(0).getFSDataset()).getSpaceTuner();
  }

  /** Lines of random lowercase words, 31 bytes each, {@link #FILES} files in {@code dir}. */
  private void writeInput(String dir, int linesPerFile) throws IOException {
    FileSystem fs = dfs.getFileSystem();
    Random random = new Random(42);
    for (int f = 0; f < FILES; f++) {
      try (Writer out = new OutputStreamWriter(
          fs.create(new org.apache.hadoop.fs.Path(dir, "part-" + f)), StandardCharsets.UTF_8)) {
        for (int i = 0; i < linesPerFile; i++) {
          StringBuilder line = new StringBuilder();
          for (int c = 0; c < 30; c++) {
            line.append((char) ('a' + random.nextInt(26)));
          }
          out.write(line.append('\n').toString());
        }
      }
    }
  }

  /** Sorts the lines: every map output byte is shuffled, spilled and merged on local disks. */
  private Job sortJob(String output) throws IOException {
    Job job = Job.getInstance(new Configuration(yarn.getConfig()), "sort " + output);
    Configuration conf = job.getConfiguration();
    conf.setInt(MRJobConfig.IO_SORT_MB, 1); // several spills per map
    // Reduce-side buffers small enough that map outputs and merges go to disk.
    conf.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.02f);
    conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f);
    job.setJarByClass(TestSsdShuffleJobs.class);
    job.setMapperClass(InverseMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path("/in"));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output));
    return job;
  }

  /** Intermediate files of task attempts under the localized dir now. */
  private List<Path> intermediateFiles() throws IOException {
    Path usercache = localized.toPath().resolve("usercache");
    if (!Files.isDirectory(usercache)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(usercache)) {
      return files.filter(Files::isRegularFile)
          .filter(file -> file.toString().contains("attempt_")).toList();
    } catch (UncheckedIOException e) {
      return List.of(); // YARN deleted a dir while we walked it
    }
  }

  private void awaitNothingHeld() throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return intermediateFiles().isEmpty() && tuner().localizedBytes() == 0
            && tuner().liveAttempts() == 0 && tuner().channel().jobsWithKeys() == 0;
      } catch (IOException e) {
        return false;
      }
    }, 100, 60_000, "no intermediate file, localized byte or job key left");
  }

  @Test
  void aShuffleLargerThanTheSsdShareOverflowsToHddAndSortsCorrectly() throws Exception {
    Job job = sortJob("/out/sort");
    job.submit();
    GenericTestUtils.waitFor(() -> {
      try {
        return !intermediateFiles().isEmpty() || job.isComplete();
      } catch (IOException e) {
        return false;
      }
    }, 20, 120_000, "intermediate files on the SSD while the job runs");
    assertTrue(!intermediateFiles().isEmpty() || tuner().grantedBytes() > 0,
        "intermediate files were written to the SSD");
    assertTrue(job.waitForCompletion(false), "the job failed");

    // Each grant needed the job's key, which only the relay hands the slave.
    assertTrue(tuner().grantedBytes() > 0, "some intermediate data went to the SSD");
    assertTrue(tuner().refusedBytes() > 0, "the rest overflowed to the HDD dirs");
    assertSorted("/out/sort");
    // Each side fails here, naming its hook, should Hadoop stop calling it (architecture.md):
    // stock Hadoop would also put some files in the SSD dir, one of its local dirs.
    Set<String> attempts = attemptsPlacingFilesBySsdGrants();
    assertTrue(attempts.stream().anyMatch(attempt -> attempt.contains("_m_")), "no map placed"
        + " its spills and output by the slave's grants: SsdMapOutputCollector's output files"
        + " (Task.mapOutputFile, read by MapOutputBuffer.init) were not used: " + attempts);
    assertTrue(attempts.stream().anyMatch(attempt -> attempt.contains("_r_")), "no reduce placed"
        + " its map outputs and merges by the slave's grants: SsdShuffle's merge manager"
        + " (Shuffle.createMergeManager) was not used: " + attempts);
    awaitNothingHeld();
  }

  /**
   * A sort whose local data fits the node's localized room (about 3 MB of 8 MB), with eight
   * maps, a merge factor of 4 and every map output shuffled to disk, so that the reduce merges
   * on disk and Hadoop's Merger writes passes whatever the order of events (the seventh output
   * starts a merge of four, and at most five are left for the final merge):
   * every file its tasks write to local dirs (spills, map outputs and indexes, shuffled map
   * outputs, merges and merge passes) and every file the NodeManager places for it (its
   * localized job files, its containers' launch scripts) is on the SSD dir, none on the three HDD
   * dirs; no attempt fails.
   */
  @Test
  void aJobWhoseLocalDataFitsTheRoomWritesEveryLocalFileToTheSsd() throws Exception {
    awaitNothingHeld();
    int lines = 5_000;
    writeInput("/small", lines);
    Path recorded = mkdirs(work).toPath().resolve("recorded-local-files");
    Files.deleteIfExists(recorded);
    Job job = sortJob("/out/fits");
    Configuration conf = job.getConfiguration();
    FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path("/small"));
    conf.set("fs.file.impl", RecordingLocalFileSystem.class.getName());
    conf.set(RecordingLocalFileSystem.LOG_KEY, recorded.toString());
    FileInputFormat.setMaxInputSplitSize(job, lines * 31 / 2 + 1); // two maps a file
    conf.setInt(MRJobConfig.IO_SORT_FACTOR, 4);
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0f); // every map output to disk
    job.submit();
    String app = job.getJobID().toString().replace("job_", "application_");
    Set<String> seenOnHdd = new HashSet<>();
    Set<String> seenOnSsd = new HashSet<>();
    GenericTestUtils.waitFor(() -> {
      for (File localDir : nodeManagerLocalDirs()) {
        (onSsd(localDir.getPath()) ? seenOnSsd : seenOnHdd).addAll(appFiles(localDir, app));
      }
      try {
        return job.isComplete();
      } catch (IOException e) {
        return false;
      }
    }, 20, 120_000, "the job's end");
    assertTrue(job.isSuccessful(), "the job failed");
    assertSorted("/out/fits", lines);
    assertEquals(0, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue(),
        "failed attempts");

    // The one file the NodeManager places by a rule of its own: its localizer's tokens, a few
    // hundred bytes in an application dir the container executor picks by free space.
    seenOnHdd.removeIf(file -> file.matches("\\.?container_[^/]*\\.tokens(\\.crc)?"));
    assertEquals(Set.of(), seenOnHdd, "the NodeManager placed files of " + app
        + " on HDD local dirs (SsdFirstAppDirs, through NodeManagerAppDirs, not in use)");
    assertTrue(seenOnSsd.stream().anyMatch(file -> file.matches("filecache/.*/job.xml")),
        "the job's conf localized on the SSD: " + seenOnSsd);
    assertTrue(seenOnSsd.stream()
        .anyMatch(file -> file.matches("container_[^/]*/launch_container.sh")),
        "containers' work dirs on the SSD: " + seenOnSsd);
    List<String> written = Files.readAllLines(recorded, StandardCharsets.UTF_8).stream()
        .filter(file -> file.contains(app)).toList();
    assertEquals(List.of(), written.stream().filter(file -> !onSsd(file)).toList(),
        "files the tasks wrote to HDD local dirs");
    // A map's spills and output index (its output is a spill renamed, or merged from spills);
    // a reduce's shuffled map outputs, its merges and merge passes (a map's merge passes, which
    // need more spills than fit here: TestMergerPasses).
    for (String kind : List.of("_m_\\d+_\\d+_spill_\\d+\\.out", "/file\\.out\\.index",
        "/map_\\d+\\.out", "\\.merged",
        "_r_\\d+_\\d+/intermediate\\.\\d+")) {
      Pattern pattern = Pattern.compile(kind + "$");
      assertTrue(written.stream().anyMatch(file -> pattern.matcher(file).find()), "no file "
          + kind + " written: the job does not test it: " + written);
    }
    awaitNothingHeld();
  }

  /**
   * The SSD fills while the job's tasks write to it (another process takes its room, kept full
   * until the job ends): writes under way move to the HDD dirs, later ones are refused room or
   * placed there, and no attempt fails. The maps hold in their first spill, its file open, until
   * the SSD is full, so that a write is under way on it whatever the machine's speed.
   */
  @Test
  void anSsdThatFillsWhileTasksWriteFailsNoAttempt() throws Exception {
    Assumptions.assumeTrue(localizedDevice != null, SmallDevice.WHY_NOT);
    awaitNothingHeld();
    Path holds = Files.createDirectories(work.toPath().resolve("holding-combiner"));
    Job job = sortJob("/out/full");
    job.setCombinerClass(HoldingCombiner.class);
    job.getConfiguration().set(HoldingCombiner.DIR_KEY, holds.toString());
    job.submit();
    // Every map holds (its JVM has started and written its job.xml to its work dir, which does
    // not move: docs/architecture.md), one in a spill on the SSD.
    GenericTestUtils.waitFor(() -> {
      try (Stream<Path> holding = Files.list(holds)) {
        if (holding.count() < FILES) {
          return job.isComplete();
        }
        for (Path file : intermediateFiles()) {
          Matcher map = MAP_ATTEMPT.matcher(file.toString());
          if (file.getFileName().toString().contains("spill") && map.find()
              && Files.exists(holds.resolve(map.group()))) {
            return true;
          }
        }
        return job.isComplete();
      } catch (IOException e) {
        return false;
      }
    }, 5, 120_000, "every map holding, one in a spill it writes to the SSD");
    localizedDevice.fill("filler");
    // Files deleted while the job runs give room back: the filler takes it again.
    ScheduledExecutorService filler = Executors.newSingleThreadScheduledExecutor();
    filler.scheduleWithFixedDelay(() -> {
      try {
        localizedDevice.fill("filler");
      } catch (IOException | RuntimeException e) {
        LOG.warn("filling the SSD failed this time", e);
      }
    }, 10, 10, TimeUnit.MILLISECONDS);
    Files.createFile(holds.resolve(HoldingCombiner.RELEASE));
    try {
      assertTrue(job.waitForCompletion(false), "the job failed");
    } finally {
      filler.shutdownNow();
      filler.awaitTermination(10, TimeUnit.SECONDS);
      Files.deleteIfExists(localized.toPath().resolve("filler"));
      FileUtil.fullyDelete(holds.toFile());
    }
    assertSorted("/out/full");
    assertEquals(0, job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue()
        + job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue(),
        "attempts failed on the full SSD");
    assertTrue(taskLogLines().stream().anyMatch(line -> line.contains("the SSD is full; ")),
        "no write found the SSD full: the test"
        + " filled it too late to test anything");
    // The NodeManager's disk checker took the full dir out of use; it is back once it has room.
    GenericTestUtils.waitFor(() -> yarn.getNodeManager(0).getNMContext().getLocalDirsHandler()
        .getLocalDirs().stream().anyMatch(this::onSsd), 100, 60_000,
        "the SSD local dir back in the NodeManager's use");
    awaitNothingHeld();
  }

  /** Every line of the tasks' syslogs, of all the jobs this class ran so far. */
  private List<String> taskLogLines() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> logs = Files.walk(yarn.getTestWorkDir().toPath())) {
      for (Path log : logs.filter(file -> file.getFileName().toString().equals("syslog"))
          .toList()) {
        lines.addAll(Files.readAllLines(log, StandardCharsets.UTF_8));
      }
    }
    return lines;
  }

  /** The NodeManager's local dirs: MiniYARNCluster's four, the last the SSD's link. */
  private List<File> nodeManagerLocalDirs() {
    List<File> dirs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      dirs.add(new File(yarn.getTestWorkDir(), "ssdshuffle-localDir-nm-0_" + i));
    }
    return dirs;
  }

  private boolean onSsd(String path) {
    return path.contains("ssdshuffle-localDir-nm-0_3")
        || path.startsWith(localized.getAbsolutePath());
  }

  /**
   * The files in the application's dir under {@code localDir}, relative to it: its localized
   * files (filecache/...), its containers' launch scripts and tokens, task files. (YARN makes
   * the application's filecache and container dirs on every local dir; what it places is files.)
   */
  private static Set<String> appFiles(File localDir, String app) {
    Set<String> files = new HashSet<>();
    File[] users = new File(localDir, "usercache").listFiles();
    for (File user : users == null ? new File[0] : users) {
      Path appDir = new File(user, "appcache/" + app).toPath();
      try (Stream<Path> walk = Files.walk(appDir)) {
        walk.filter(Files::isRegularFile).forEach(file -> files.add(appDir.relativize(file)
            .toString()));
      } catch (IOException | UncheckedIOException e) {
        // not made yet, or YARN or a task deleted a dir while we walked it
      }
    }
    return files;
  }

  /** Task attempts whose logs say SsdOutputFiles placed their files, from the tasks' syslogs. */
  private Set<String> attemptsPlacingFilesBySsdGrants() throws IOException {
    Pattern placing = Pattern.compile("mpCache: intermediate files of (attempt_\\S+) go to SSD");
    Set<String> attempts = new HashSet<>();
    for (String line : taskLogLines()) {
      Matcher matcher = placing.matcher(line);
      if (matcher.find()) {
        attempts.add(matcher.group(1));
      }
    }
    return attempts;
  }

  /**
   * With map outputs compressed, each map asks for its one spill's uncompressed size and leaves a
   * file several times smaller: the slave learns that share from the maps' own files (their
   * paths name the attempts, YARN's layout) and charges later requests with it.
   */
  @Test
  void mapsOfCompressedOutputTeachTheShareTheyWrite() throws Exception {
    FileSystem fs = dfs.getFileSystem();
    for (int f = 0; f < FILES; f++) {
      try (Writer out = new OutputStreamWriter(
          fs.create(new org.apache.hadoop.fs.Path("/words/part-" + f)), StandardCharsets.UTF_8)) {
        for (int i = 0; i < LINES_PER_FILE / 2; i++) {
          out.write("the quick brown fox jumps over the lazy dog " + (i % 100) + "\n");
        }
      }
    }
    Job job = sortJob("/out/compressed");
    Configuration conf = job.getConfiguration();
    conf.setInt(MRJobConfig.IO_SORT_MB, 50); // one spill a map, renamed into its output
    conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
    conf.setClass(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, DefaultCodec.class,
        CompressionCodec.class);
    FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path("/words"));
    assertTrue(job.waitForCompletion(false), "the job failed");
    assertTrue(tuner().writtenShare() < 0.5, "the maps' compressed outputs are under half their"
        + " requests: " + tuner().writtenShare());
    awaitNothingHeld();
  }

  @Test
  void aKilledJobLeavesNoGrantBehind() throws Exception {
    Job job = sortJob("/out/killed");
    job.submit();
    GenericTestUtils.waitFor(() -> tuner().liveAttempts() > 0, 20, 120_000,
        "a task attempt holding SSD room");
    job.killJob();
    awaitNothingHeld();
  }

  /**
   * A task plants links and FIFOs at the names the slave writes in its NodeManager's local dirs
   * (every task may write them under the default container executor) and removes the address
   * file, each time waiting until the slave has written it again ({@link PlantingMapper}): no
   * file outside the dirs changes, and the DataNode goes on serving and scanning.
   */
  @Test
  void aTaskPlantingLinksAndFifosInItsLocalDirsChangesNothingOutsideThemAndStallsNoDataNode()
      throws Exception {
    Path victim = mkdirs(work).toPath().resolve("victim");
    Files.writeString(victim, "a file the DataNode may write");
    Job job = Job.getInstance(new Configuration(yarn.getConfig()), "plant links");
    job.getConfiguration().set(PlantingMapper.VICTIM_KEY, victim.toString());
    job.getConfiguration().setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 1);
    job.setJarByClass(TestSsdShuffleJobs.class);
    job.setMapperClass(PlantingMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(NullOutputFormat.class);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path("/in/part-0"));
    boolean succeeded = job.waitForCompletion(false);
    assertEquals("a file the DataNode may write", Files.readString(victim));
    assertTrue(succeeded, "the planting task failed (its syslog says why)");
    assertEquals(4, job.getCounters().findCounter(PlantingMapper.Planted.REPLACED).getValue(),
        "a link and a FIFO at each of the two names, each replaced by the slave");

    Path published = localized.toPath().resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
    Files.delete(published);
    GenericTestUtils.waitFor(() -> Files.isRegularFile(published, LinkOption.NOFOLLOW_LINKS),
        20, 30_000, "the slave's scans going on");
    assertEquals(LINES_PER_FILE, lines(dfs.getFileSystem(),
        new org.apache.hadoop.fs.Path("/in/part-0")), "the DataNode serves reads");
  }

  private static long lines(FileSystem fs, org.apache.hadoop.fs.Path file) throws IOException {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      return in.lines().count();
    }
  }

  /**
   * In each of its local dirs that holds the slave's address file: for each name the slave
   * writes there, a link to {@link #VICTIM_KEY} and then a FIFO are planted in place of the file,
   * which is removed; the task waits for the slave to write it again.
   */
  public static final class PlantingMapper
      extends Mapper<LongWritable, Text, LongWritable, Text> {
    static final String VICTIM_KEY = "test.planting-mapper.victim";

    enum Planted { REPLACED }

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      Path victim = Path.of(context.getConfiguration().get(VICTIM_KEY));
      for (String appDir : System.getenv("LOCAL_DIRS").split(",")) {
        // <local dir>/usercache/<user>/appcache/<application>
        Path localDir = Path.of(appDir).getParent().getParent().getParent().getParent();
        Path published = localDir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
        if (!Files.exists(published, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        for (String name : List.of(LocalizedSpaceProtocol.ADDRESS_FILE + ".tmp",
            LocalizedSpaceProtocol.ADDRESS_FILE)) {
          for (boolean fifo : new boolean[] {false, true}) {
            Path planted = localDir.resolve(name);
            Files.deleteIfExists(published);
            Files.deleteIfExists(planted);
            if (fifo) {
              Process mkfifo = new ProcessBuilder("mkfifo", planted.toString()).start();
              if (mkfifo.waitFor() != 0) {
                throw new IOException("mkfifo " + planted + " failed");
              }
            } else {
              Files.createSymbolicLink(planted, victim);
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (!Files.isRegularFile(published, LinkOption.NOFOLLOW_LINKS)) {
              if (System.currentTimeMillis() > deadline) {
                throw new IOException("the slave did not write " + published + " again after a "
                    + (fifo ? "FIFO" : "link") + " was planted at " + planted);
              }
              Thread.sleep(20); // the task polls the DataNode's scan; nothing to wait on
            }
            context.getCounter(Planted.REPLACED).increment(1);
          }
        }
      }
    }
  }

  /**
   * Passes records through, having first held until the test releases it: it says it holds with
   * a file named after its attempt in {@link #DIR_KEY}'s dir and waits there for {@link #RELEASE}.
   * A map runs its combiner within a spill, the spill's file open: its write waits with it.
   */
  public static final class HoldingCombiner
      extends Reducer<Text, LongWritable, Text, LongWritable> {
    static final String DIR_KEY = "test.holding-combiner.dir";
    static final String RELEASE = "release";

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      Path dir = Path.of(context.getConfiguration().get(DIR_KEY));
      Path release = dir.resolve(RELEASE);
      if (Files.exists(release)) {
        return;
      }
      Files.write(dir.resolve(context.getTaskAttemptID().toString()), new byte[0]);
      long deadline = System.currentTimeMillis() + 120_000;
      while (!Files.exists(release) && System.currentTimeMillis() < deadline) {
        Thread.sleep(20); // the test's signal is a file; nothing to wait on
      }
    }
  }

  private void assertSorted(String output) throws IOException {
    assertSorted(output, LINES_PER_FILE);
  }

  /** The output holds every input line once, in order. */
  private void assertSorted(String output, int linesPerFile) throws IOException {
    FileSystem fs = dfs.getFileSystem();
    List<String> keys = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        fs.open(new org.apache.hadoop.fs.Path(output, "part-r-00000")), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        keys.add(line.substring(0, line.indexOf('\t')));
      }
    }
    assertEquals(FILES * linesPerFile, keys.size(), "every line once");
    for (int i = 1; i < keys.size(); i++) {
      assertTrue(keys.get(i - 1).compareTo(keys.get(i)) <= 0, "out of order at line " + i);
    }
  }
}
