package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.mpcache.slave.spacetuner.SpaceTuner;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's relay against a real DataNode's localized-space channel: MpCacheShuffleHandler
 * hands a job's key over when YARN initializes the application with its shuffle secret and takes
 * it back when the application stops; a restarted DataNode learns the keys back from the
 * resends; no key goes to an address that is not loopback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class TestChannelRelay {
  private static final int BLOCK = 1 << 20;
  private final File work = GenericTestUtils.getTestDir("channel-relay");
  private MiniDFSCluster dfs;
  private Configuration nodeManager;

  @BeforeAll
  void start() throws Exception {
    FileUtil.fullyDelete(work);
    File localized = new File(work, "ssd/localized");
    File hddLocal = new File(work, "hdd/local");
    assertTrue(hddLocal.mkdirs() && new File(work, "ssd/cache").mkdirs());
    Path secret = work.toPath().resolve("relay-secret");
    Files.writeString(secret, "relay-secret-of-the-relay-test\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("r--------"));
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.set(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, DATASET_FACTORY_CLASS);
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
    conf.set(DFS_MPCACHE_DIRS_KEY, new File(work, "ssd/cache").getAbsolutePath());
    conf.setLong(DFS_MPCACHE_CAPACITY_KEY, 8L * BLOCK);
    conf.set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, localized.getAbsolutePath());
    conf.set(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY, secret.toString());
    dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(1).build();
    dfs.waitActive();
    nodeManager = new Configuration(conf);
    nodeManager.setStrings(YarnConfiguration.NM_LOCAL_DIRS, hddLocal.getAbsolutePath(),
        localized.getAbsolutePath());
  }

  @AfterAll
  void stop() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  private SpaceTuner tuner() {
    return ((MpCacheFsDataset) dfs.getDataNodes().get(0).getFSDataset()).getSpaceTuner();
  }

  private void awaitJobKeys(int jobs) throws Exception {
    GenericTestUtils.waitFor(() -> tuner() != null && tuner().channel().jobsWithKeys() == jobs, 20,
        30_000, jobs + " job keys on the DataNode");
  }

  /** The application data YARN gives the shuffle service: the job token with the secret. */
  private static ByteBuffer shuffleData(String jobId, byte[] shuffleSecret) throws IOException {
    return ShuffleHandler.serializeServiceData(new Token<>(
        new JobTokenIdentifier(new Text(jobId)).getBytes(), shuffleSecret,
        JobTokenIdentifier.KIND_NAME, new Text("")));
  }

  @Test
  void theShuffleServiceRelaysEachJobsKeyAndTakesItBackWhenTheApplicationStops()
      throws Exception {
    ApplicationId app = ApplicationId.newInstance(1_700_000_000_000L, 7);
    String job = "job_1700000000000_0007";
    byte[] shuffleSecret = "shuffle secret of job 7".getBytes(StandardCharsets.UTF_8);
    MpCacheShuffleHandler shuffle = new MpCacheShuffleHandler();
    Configuration conf = new Configuration(nodeManager);
    conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
    shuffle.init(conf);
    shuffle.start();
    try {
      // Garbled application data: logged, nothing relayed, the NodeManager unharmed.
      shuffle.initializeApplication(new ApplicationInitializationContext("u",
          ApplicationId.newInstance(1_700_000_000_000L, 8), ByteBuffer.wrap(new byte[] {1})));
      shuffle.initializeApplication(new ApplicationInitializationContext("u", app,
          shuffleData(job, shuffleSecret)));
      awaitJobKeys(1);
      try (LocalizedSpaceClientSideTranslatorPB task = LocalizedSpaceClientSideTranslatorPB
          .connect(nodeManager, NetUtils.createSocketAddr(Files.readString(
              Path.of(nodeManager.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)[1],
                  LocalizedSpaceProtocol.ADDRESS_FILE)).trim()), 10_000,
              LocalizedTokenIdentifier.ofJob(job),
              LocalizedChannelKeys.jobKey(shuffleSecret, job))) {
        assertTrue(task.reserve("attempt_1700000000000_0007_m_000000_0", BLOCK).granted(),
            "the task's key is the one the relay derived from the same secret");
        task.finish("attempt_1700000000000_0007_m_000000_0");
      }
      shuffle.stopApplication(new ApplicationTerminationContext(app));
      awaitJobKeys(0);
    } finally {
      shuffle.stop();
    }
  }

  @Test
  void aRestartedDataNodeLearnsTheKeysBackFromTheResends() throws Exception {
    try (ChannelRelay relay = ChannelRelay.from(nodeManager, 200)) {
      relay.admit("job_1_0001", "shuffle secret".getBytes(StandardCharsets.UTF_8));
      awaitJobKeys(1);
      assertTrue(dfs.restartDataNode(0));
      dfs.waitActive();
      awaitJobKeys(1);
      relay.forget("job_1_0001");
      awaitJobKeys(0);
    }
  }

  @Test
  void noKeyGoesToAnAddressThatIsNotLoopback() throws Exception {
    File elsewhere = new File(work, "elsewhere");
    assertTrue(elsewhere.mkdirs());
    Files.writeString(elsewhere.toPath().resolve(LocalizedSpaceProtocol.ADDRESS_FILE),
        "192.0.2.1:9\n");
    Configuration conf = new Configuration(nodeManager);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, elsewhere.getAbsolutePath());
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger(ChannelRelay.class));
    try (ChannelRelay relay = ChannelRelay.from(conf)) {
      relay.admit("job_1_0002", "shuffle secret".getBytes(StandardCharsets.UTF_8));
      GenericTestUtils.waitFor(() -> log.getOutput().contains("192.0.2.1:9, not a loopback"
          + " address; no job key goes there"), 20, 10_000, "the relay's refusal");
    } finally {
      log.stopCapturing();
    }
    assertEquals(0, tuner().channel().jobsWithKeys());
  }
}
