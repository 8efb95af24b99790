package org.mpcache.slave.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.protocol.LocalizedSpaceProtocolPB;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.AdmitJobRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveRequestProto;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.spacetuner.SpaceTuner;
import org.mpcache.slave.spacetuner.TestSpaceTuner;
import org.slf4j.LoggerFactory;

/**
 * Whom a DataNode's localized-space channel takes calls from, over its real loopback RPC, under
 * simple auth: with a relay secret, only the tasks of the job an attempt belongs to, proving the
 * job's key the relay handed over, act for it; a forger running as the victim's own user, with
 * no key or another job's, changes nothing. And how much one attempt or one job may hold.
 * The SSD cache holds 10 units of one 256 KB block: 4 input, 4 pool, 2 localized.
 */
@Timeout(180)
class TestChannelCallers {
  private static final int BLOCK = CacheTestCluster.BLOCK_SIZE;
  private static final byte[] RELAY_SECRET =
      "relay-secret-of-the-test-cluster".getBytes(StandardCharsets.UTF_8);
  private static final String JOB = "job_1_0001";
  private static final String MAP = "attempt_1_0001_m_000000_0";
  private static final String OTHER_JOB = "job_1_0002";
  private static final String OTHER_MAP = "attempt_1_0002_m_000000_0";

  private CacheTestCluster cluster;
  private InetSocketAddress channel;

  /** The SSD layout of {@link TestSpaceTuner}, one attempt or job free to take all of it. */
  private static Configuration conf() {
    return TestSpaceTuner.conf();
  }

  private void start(Configuration conf) throws IOException {
    cluster = CacheTestCluster.start("channel", conf, 1, setup -> setup.overlay().set(
        DFS_MPCACHE_LOCALIZED_DIRS_KEY,
        new File(setup.ssdDir().getParentFile(), "localized").getAbsolutePath()));
    File localized = new File(cluster.mini().getDataNodes().get(0).getConf()
        .get(DFS_MPCACHE_LOCALIZED_DIRS_KEY));
    channel = NetUtils.createSocketAddr(Files.readString(
        new File(localized, LocalizedSpaceProtocol.ADDRESS_FILE).toPath()).trim());
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private SpaceTuner tuner() {
    return ((MpCacheFsDataset) cluster.mini().getDataNodes().get(0).getFSDataset())
        .getSpaceTuner();
  }

  /** A client as a task JVM or a forger makes it: the job's tasks derive its key. */
  private LocalizedSpaceClientSideTranslatorPB task(String job, byte[] shuffleSecret)
      throws IOException {
    return LocalizedSpaceClientSideTranslatorPB.connect(conf(), channel, 10_000,
        LocalizedTokenIdentifier.ofJob(job), LocalizedChannelKeys.jobKey(shuffleSecret, job));
  }

  /** A client proving nothing: under simple auth it runs as the victim's own user. */
  private LocalizedSpaceClientSideTranslatorPB named() throws IOException {
    return LocalizedSpaceClientSideTranslatorPB.connect(conf(), channel, 10_000);
  }

  private LocalizedSpaceClientSideTranslatorPB relay(byte[] secret) throws IOException {
    return LocalizedSpaceClientSideTranslatorPB.connect(conf(), channel, 10_000,
        LocalizedTokenIdentifier.relay(), secret);
  }

  /** As the relay admits a job: its key, masked with the relay secret. */
  private static void admit(LocalizedSpaceClientSideTranslatorPB relay, String job,
      byte[] shuffleSecret) throws IOException {
    relay.admitJob(job, LocalizedChannelKeys.mask(LocalizedChannelKeys.jobKey(shuffleSecret, job),
        RELAY_SECRET, job));
  }

  private static byte[] secret(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The configuration with a relay secret file holding {@code secret}, mode {@code mode}. */
  private static Configuration withRelaySecret(byte[] secret, String mode) throws IOException {
    Path file = GenericTestUtils.getTestDir("channel-secrets").toPath()
        .resolve("relay-" + System.nanoTime());
    Files.createDirectories(file.getParent());
    Files.write(file, secret);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    Configuration conf = conf();
    conf.set(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY, file.toString());
    return conf;
  }

  private static Configuration withRelaySecret() throws IOException {
    return withRelaySecret(RELAY_SECRET, "rw-------");
  }

  @Test
  void onlyTheTasksOfAnAttemptsJobActForItAndForgersChangeNothing() throws Exception {
    start(withRelaySecret());
    byte[] victimSecret = secret("shuffle secret of job 1");
    byte[] otherSecret = secret("shuffle secret of job 2");
    try (LocalizedSpaceClientSideTranslatorPB relay = relay(RELAY_SECRET)) {
      admit(relay, JOB, victimSecret);
      admit(relay, OTHER_JOB, otherSecret);
    }
    try (LocalizedSpaceClientSideTranslatorPB victim = task(JOB, victimSecret)) {
      assertTrue(victim.reserve(MAP, BLOCK).granted());
      assertTrue(victim.renew(MAP));
    }
    assertEquals(1, tuner().liveAttempts());

    // The victim's own user name, no key: refused, naming what is missing.
    try (LocalizedSpaceClientSideTranslatorPB forger = named()) {
      IOException finish = assertThrows(IOException.class, () -> forger.finish(MAP));
      assertTrue(finish.getMessage().contains("proving no job (no channel token) may not act"
          + " for attempt " + MAP), finish.getMessage());
      assertThrows(IOException.class, () -> forger.reserve(MAP, BLOCK));
      assertThrows(IOException.class, () -> forger.reserve(OTHER_MAP, 1));
    }
    // The victim's job with a guessed key: the connection itself fails.
    try (LocalizedSpaceClientSideTranslatorPB forger = task(JOB, secret("a guess"))) {
      assertThrows(IOException.class, () -> forger.finish(MAP));
    }
    // Another job's tasks, proving their own job: not the victim's attempts.
    try (LocalizedSpaceClientSideTranslatorPB forger = task(OTHER_JOB, otherSecret)) {
      IOException finish = assertThrows(IOException.class, () -> forger.finish(MAP));
      assertTrue(finish.getMessage().contains("proving mpCache tasks of " + OTHER_JOB
          + " may not act for attempt " + MAP), finish.getMessage());
      assertTrue(forger.reserve(OTHER_MAP, BLOCK).granted(), "its own attempts, yes");
    }
    assertEquals(2, tuner().liveAttempts(), "the victim's grant stands");
    assertEquals(2L * BLOCK, tuner().localizedBytes());

    // Nobody but the relay hands over keys: not a task, not a wrong relay secret.
    try (LocalizedSpaceClientSideTranslatorPB forger = task(OTHER_JOB, otherSecret)) {
      IOException admit = assertThrows(IOException.class,
          () -> forger.admitJob(JOB, LocalizedChannelKeys.jobKey(secret("mine"), JOB)));
      assertTrue(admit.getMessage().contains("only the NodeManager's relay"), admit.getMessage());
    }
    try (LocalizedSpaceClientSideTranslatorPB forger = relay(secret("not-the-relay-secret!"))) {
      assertThrows(IOException.class, () -> forger.forgetJob(JOB));
    }
    try (LocalizedSpaceClientSideTranslatorPB victim = task(JOB, victimSecret)) {
      assertTrue(victim.renew(MAP), "the victim's key still works");
      victim.finish(MAP);
    }
    assertEquals(1, tuner().liveAttempts());
    // Refused by the channel's checks (a wrong key or relay secret fails the connection first).
    assertEquals(5, tuner().channel().refusedCalls());
  }

  @Test
  void aJobTheRelayHasNotAdmittedOrHasForgottenIsRefused() throws Exception {
    start(withRelaySecret());
    byte[] shuffleSecret = secret("shuffle secret of job 1");
    try (LocalizedSpaceClientSideTranslatorPB early = task(JOB, shuffleSecret)) {
      assertThrows(IOException.class, () -> early.reserve(MAP, BLOCK));
    }
    try (LocalizedSpaceClientSideTranslatorPB relay = relay(RELAY_SECRET)) {
      admit(relay, JOB, shuffleSecret);
      try (LocalizedSpaceClientSideTranslatorPB task = task(JOB, shuffleSecret)) {
        assertTrue(task.reserve(MAP, BLOCK).granted());
      }
      IOException notAJob = assertThrows(IOException.class,
          () -> relay.admitJob("job_1_0003/../x", new byte[32]));
      assertTrue(notAJob.getMessage().contains("is not a job id"), notAJob.getMessage());
      IOException shortKey = assertThrows(IOException.class,
          () -> relay.admitJob("job_1_0003", new byte[1]));
      assertTrue(shortKey.getMessage().contains("a job key is 32"),
          shortKey.getMessage());
      relay.forgetJob(JOB);
    }
    try (LocalizedSpaceClientSideTranslatorPB late = task(JOB, shuffleSecret)) {
      assertThrows(IOException.class, () -> late.renew(MAP));
    }
  }

  @Test
  void withoutARelaySecretAttemptsAreTakenByNameAndNoJobIsAdmitted() throws Exception {
    start(conf());
    try (LocalizedSpaceClientSideTranslatorPB task = named()) {
      assertTrue(task.reserve(MAP, BLOCK).granted());
      IOException admit = assertThrows(IOException.class,
          () -> task.admitJob(JOB, new byte[32]));
      assertTrue(admit.getMessage().contains(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY
          + " is not set"), admit.getMessage());
    }
    // A task that holds its job's key still reaches a slave that checks none.
    try (LocalizedSpaceClientSideTranslatorPB task = task(JOB, secret("shuffle secret"))) {
      assertTrue(task.renew(MAP));
    }
  }

  @Test
  void whileJobsCompeteOneAttemptAndOneJobHoldAtMostTheirShare() throws Exception {
    // Localized data may hold 6 units: an attempt 3 of them, a job 4.5.
    start(sharesOfHalfAndThreeQuarters());
    try (LocalizedSpaceClientSideTranslatorPB tasks = named()) {
      assertTrue(tasks.reserve(OTHER_MAP, BLOCK).granted(), "another job holds room");
      assertTrue(tasks.reserve(MAP, 3L * BLOCK).granted());
      assertFalse(tasks.reserve(MAP, 1).granted(), "the attempt holds its share");
      String secondMap = "attempt_1_0001_m_000001_0";
      assertTrue(tasks.reserve(secondMap, BLOCK).granted());
      assertFalse(tasks.reserve(secondMap, BLOCK).granted(), "the job would hold 5 units");
      assertEquals(5L * BLOCK, tuner().localizedBytes());
      assertEquals(BLOCK + 1L, tuner().refusedBytes());
      tasks.finish(MAP);
      assertTrue(tasks.reserve(secondMap, BLOCK).granted(), "the finished attempt's share");
    }
  }

  /**
   * Alone on the node a job may use all of the localized room; while another job holds some, its
   * new requests are capped (what it holds is not taken back); alone again, they are not.
   */
  @Test
  void aJobAloneMayUseAllOfTheRoomAndIsCappedWhileAnotherCompetes() throws Exception {
    // Localized data may hold 6 units: an attempt 3 of them, a job 4.5, while jobs compete.
    start(sharesOfHalfAndThreeQuarters());
    try (LocalizedSpaceClientSideTranslatorPB tasks = named()) {
      assertTrue(tasks.reserve(MAP, 4L * BLOCK).granted(), "beyond the attempt's share, alone");
      assertTrue(tasks.reserve(OTHER_MAP, BLOCK).granted(), "another job has room");
      String secondMap = "attempt_1_0001_m_000001_0";
      assertFalse(tasks.reserve(secondMap, BLOCK).granted(), "the job would hold 5 units");
      assertEquals(5L * BLOCK, tuner().localizedBytes(), "the 4 units held are not taken back");
      tasks.finish(OTHER_MAP);
      assertTrue(tasks.reserve(secondMap, BLOCK).granted(), "alone again: beyond its share");
    }
  }

  private Configuration sharesOfHalfAndThreeQuarters() {
    Configuration conf = conf();
    conf.set(DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_KEY, "0.5");
    conf.set(DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_KEY, "0.75");
    return conf;
  }

  @Test
  void aCallerThatSendsNoUserAtAllProvesNothing() throws Exception {
    start(withRelaySecret());
    try (LocalizedSpaceClientSideTranslatorPB relay = relay(RELAY_SECRET)) {
      admit(relay, JOB, secret("shuffle secret of job 1"));
    }
    // Simple authentication lets a client connect without naming any user.
    Configuration conf = conf();
    RPC.setProtocolEngine(conf, LocalizedSpaceProtocolPB.class, ProtobufRpcEngine2.class);
    LocalizedSpaceProtocolPB nobody = RPC.getProtocolProxy(LocalizedSpaceProtocolPB.class,
        RPC.getProtocolVersion(LocalizedSpaceProtocolPB.class), channel, null, conf,
        NetUtils.getDefaultSocketFactory(conf), 10_000, null).getProxy();
    try {
      ServiceException reserve = assertThrows(ServiceException.class, () -> nobody.reserve(null,
          ReserveRequestProto.newBuilder().setAttemptId(MAP).setBytes(BLOCK).build()));
      assertTrue(reserve.getMessage().contains("proving no job"), reserve.getMessage());
      ServiceException admit = assertThrows(ServiceException.class, () -> nobody.admitJob(null,
          AdmitJobRequestProto.newBuilder().setJobId(OTHER_JOB)
              .setKey(ByteString.copyFrom(new byte[LocalizedChannelKeys.KEY_BYTES])).build()));
      assertTrue(admit.getMessage().contains("only the NodeManager's relay"), admit.getMessage());
    } finally {
      RPC.stopProxy(nobody);
    }
    assertEquals(1, tuner().channel().jobsWithKeys());
    assertEquals(0, tuner().liveAttempts());
  }

  @Test
  void aTokenNamingNoJobIsNotReadPastItsBound() throws Exception {
    DataOutputBuffer huge = new DataOutputBuffer();
    WritableUtils.writeVInt(huge, Integer.MAX_VALUE);
    assertThrows(IOException.class, () -> read(huge));
    DataOutputBuffer notAJob = new DataOutputBuffer();
    Text.writeString(notAJob, "job_1_0001/../../x");
    IOException e = assertThrows(IOException.class, () -> read(notAJob));
    assertTrue(e.getMessage().contains("not a job id"), e.getMessage());
  }

  private static void read(DataOutputBuffer written) throws IOException {
    DataInputBuffer in = new DataInputBuffer();
    in.reset(written.getData(), written.getLength());
    new LocalizedTokenIdentifier().readFields(in);
  }

  @Test
  void anEndedAttemptsFilesCountAgainstItsJobAndAttemptsAreCounted() throws Exception {
    // Localized data may hold 6 units: a job 3 of them, while another job holds one.
    Configuration conf = conf();
    conf.set(DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_KEY, "0.5");
    start(conf);
    File localized = new File(cluster.mini().getDataNodes().get(0).getConf()
        .get(DFS_MPCACHE_LOCALIZED_DIRS_KEY));
    try (LocalizedSpaceClientSideTranslatorPB tasks = named()) {
      assertTrue(tasks.reserve("attempt_1_0009_m_000000_0", BLOCK).granted(), "a competitor");
      assertTrue(tasks.reserve(MAP, 2L * BLOCK).granted());
      Path output = localized.toPath().resolve("usercache/u/appcache/application_1_0001/output")
          .resolve(MAP).resolve("file.out");
      Files.createDirectories(output.getParent());
      Files.write(output, new byte[2 * BLOCK]);
      tasks.finish(MAP);
      GenericTestUtils.waitFor(() -> tuner().localizedBytes() == 3L * BLOCK
          && tuner().liveAttempts() == 1, 20, 10_000, "the ended map's files counted");
      String secondMap = "attempt_1_0001_m_000001_0";
      assertFalse(tasks.reserve(secondMap, 2L * BLOCK).granted(),
          "the ended map's files still hold 2 of the job's 3 units");
      assertTrue(tasks.reserve(secondMap, BLOCK).granted());
      // A reservation of nothing holds no lease; live attempts of one job are bounded.
      assertTrue(tasks.reserve("attempt_1_0002_m_000000_0", 0).granted());
      assertEquals(2, tuner().liveAttempts());
      for (int task = 0; task < SpaceTuner.MAX_LIVE_ATTEMPTS_PER_JOB; task++) {
        tasks.reserve(String.format("attempt_1_0003_r_%06d_0", task), 1);
      }
      assertEquals(2 + SpaceTuner.MAX_LIVE_ATTEMPTS_PER_JOB, tuner().liveAttempts());
      assertFalse(tasks.reserve("attempt_1_0003_r_999999_0", 1).granted(), "one too many");
      assertTrue(tasks.reserve("attempt_1_0004_r_000000_0", 1).granted(), "another job's");
    }
  }

  @ParameterizedTest
  @CsvSource({"a-secret-readable-by-all, rw-r--r--, is readable by every user",
      "short, rw-------, holds 5 bytes; a secret needs at least 16"})
  void aRelaySecretThatProvesNothingLeavesIntermediateDataOnTheHdds(String secret, String mode,
      String cause) throws Exception {
    Configuration conf = withRelaySecret(secret(secret), mode);
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger(SpaceTuner.class));
    cluster = CacheTestCluster.start("channel", conf, 1, setup -> setup.overlay().set(
        DFS_MPCACHE_LOCALIZED_DIRS_KEY,
        new File(setup.ssdDir().getParentFile(), "localized").getAbsolutePath()));
    log.stopCapturing();
    assertNull(tuner(), "no tuner: the DataNode serves input data and says why");
    assertTrue(cluster.cache(0).enabled());
    assertTrue(log.getOutput().contains(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY)
        && log.getOutput().contains(cause), log.getOutput());
  }
}
