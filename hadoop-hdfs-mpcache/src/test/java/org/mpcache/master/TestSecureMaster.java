package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;
import static org.mpcache.master.MasterCalls.refusal;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.MpCachePolicyProvider;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.spacetuner.SpaceTuner;
import org.mpcache.tools.FreePorts;

/**
 * The master on a Kerberized cluster (Hadoop's MiniKdc; secure settings as Hadoop's own secure
 * HDFS tests make them): slaves authenticate as the DataNode principal and the cache works; a
 * principal that is not a DataNode cannot act as one nor read the report; one outside the
 * service ACL and an unauthenticated caller cannot call at all. On the DataNodes' localized-space
 * channel tasks and the relay authenticate with their tokens, and a Kerberos principal without
 * one cannot call. NameNode and DataNodes share one
 * principal, as in Hadoop's tests: one JVM has one Kerberos login (TestMasterCallers checks
 * the principal rule itself: {@code _HOST}, proxies, tokens).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TestSecureMaster {
  private static final int BLOCK = CacheTestCluster.BLOCK_SIZE;
  private static final byte[] RELAY_SECRET =
      "relay-secret-of-the-secure-cluster".getBytes(StandardCharsets.UTF_8);

  private File base;
  private String keystores;
  private String sslConf;
  private MiniKdc kdc;
  private File keytab;
  private Configuration conf;
  private InetSocketAddress masterAddress;
  private CacheTestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    base = GenericTestUtils.getTestDir("secure-master");
    FileUtil.fullyDelete(base);
    assertTrue(base.mkdirs());
    kdc = new MiniKdc(MiniKdc.createConf(), base);
    kdc.start();
    keytab = new File(base, "all.keytab");
    kdc.createPrincipal(keytab, "hdfs/localhost", "HTTP/localhost", "alice/localhost",
        "mallory/localhost");

    conf = CacheTestCluster.conf();
    SecurityUtil.setAuthenticationMethod(AuthenticationMethod.KERBEROS, conf);
    conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, true);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, principal("hdfs"));
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, principal("hdfs"));
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, principal("HTTP"));
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    conf.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, HttpConfig.Policy.HTTPS_ONLY.name());
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, "localhost:0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY, "localhost:0");
    keystores = base.getAbsolutePath();
    sslConf = KeyStoreTestUtil.getClasspathDir(TestSecureMaster.class);
    KeyStoreTestUtil.setupSSLConfig(keystores, sslConf, conf, false);
    conf.set(DFSConfigKeys.DFS_CLIENT_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getClientSSLConfigFileName());
    conf.set(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getServerSSLConfigFileName());
    // Who may connect at all: the HDFS principal's user and alice, not mallory.
    conf.set(MpCachePolicyProvider.MASTER_PROTOCOL_ACL, "hdfs,alice");

    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MpCacheMasterPlugin.class.getName());
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h");
    UserGroupInformation.setConfiguration(conf);
    // The localized-space channel too, with tasks proving their job (docs/security.md).
    java.nio.file.Path relaySecret = base.toPath().resolve("relay-secret");
    Files.write(relaySecret, RELAY_SECRET);
    Files.setPosixFilePermissions(relaySecret, PosixFilePermissions.fromString("r--------"));
    conf.set(DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY, relaySecret.toString());
    cluster = CacheTestCluster.start("secure-master", conf, 2, setup -> setup.overlay().set(
        DFS_MPCACHE_LOCALIZED_DIRS_KEY,
        new File(setup.ssdDir().getParentFile(), "localized" + setup.index()).getAbsolutePath()));
    cluster.waitMasterActive(conf, masterAddress);
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (kdc != null) {
      kdc.stop();
    }
    KeyStoreTestUtil.cleanupSSLConfig(keystores, sslConf);
  }

  private String principal(String name) {
    return name + "/localhost@" + kdc.getRealm();
  }

  private UserGroupInformation login(String name) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal(name),
        keytab.getAbsolutePath());
  }

  private <T> T as(UserGroupInformation user, MasterCalls.Call<T> call) throws Exception {
    return MasterCalls.as(user, conf, masterAddress, call);
  }

  @Test
  void theSlavesAuthenticateAsTheirDataNodeAndTheCacheWorks() throws Exception {
    Path file = new Path("/data/part-0");
    byte[] data = cluster.writeCached(file, 2 * BLOCK, 7);
    long hits = cluster.total(CacheCounter.HITS);
    assertArrayEquals(data, cluster.read(file));
    assertEquals(hits + 2, cluster.total(CacheCounter.HITS), "both blocks read from the SSD");
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    assertTrue(MetricsAsserts.getLongCounter("AdmissionsAdmitted", metrics) >= 2,
        "the master decided the copies");
    MasterReport report = as(login("hdfs"), MpCacheMasterProtocol::report);
    assertEquals(2, report.nodes().size());
    for (DataNode dataNode : cluster.mini().getDataNodes()) {
      assertTrue(CacheTestCluster.cache(dataNode).arbiterState().startsWith("master"),
          CacheTestCluster.cache(dataNode).arbiterState());
    }
  }

  @Test
  void aPrincipalThatIsNotADataNodeCannotActAsOneNorReadTheReport() throws Exception {
    UserGroupInformation alice = login("alice");
    String uuid = cluster.mini().getDataNodes().get(0).getDatanodeUuid();
    Exception forged = assertThrows(Exception.class, () -> as(alice,
        master -> master.register(uuid, "localhost", new SlaveUsage(0, 0, 0, 0, 0, 0, 0, "ok",
            0, 0), new long[0])));
    String message = refusal(AccessControlException.class, forged).getMessage();
    assertTrue(message.contains("a call by " + principal("alice")) && message.contains(
        " as DataNode " + uuid + ", whose principal is " + principal("hdfs")), message);
    Exception report = assertThrows(Exception.class,
        () -> as(alice, MpCacheMasterProtocol::report));
    assertTrue(refusal(AccessControlException.class, report).getMessage().contains("alice"));
  }

  @Test
  void aPrincipalOutsideTheServiceAclCannotCall() throws Exception {
    Exception e = assertThrows(Exception.class,
        () -> as(login("mallory"), master -> master.cachedOn(new long[] {1})));
    String message = refusal(AuthorizationException.class, e).getMessage();
    assertTrue(message.contains("mallory") && message.contains("not authorized"), message);
  }

  @Test
  void tasksProveTheirJobOnTheLocalizedChannelAndAKerberosPrincipalWithoutAKeyCannotCall()
      throws Exception {
    DataNode dataNode = cluster.mini().getDataNodes().get(0);
    InetSocketAddress channel = NetUtils.createSocketAddr(Files.readString(Paths.get(dataNode
        .getConf().get(DFS_MPCACHE_LOCALIZED_DIRS_KEY), LocalizedSpaceProtocol.ADDRESS_FILE))
        .trim());
    String job = "job_1_0001";
    String map = "attempt_1_0001_m_000000_0";
    byte[] key = LocalizedChannelKeys.jobKey(
        "shuffle secret of job 1".getBytes(StandardCharsets.UTF_8), job);
    // Token authentication: neither the relay nor a task holds a Kerberos ticket.
    try (LocalizedSpaceClientSideTranslatorPB relay = LocalizedSpaceClientSideTranslatorPB
        .connect(conf, channel, 10_000, LocalizedTokenIdentifier.relay(), RELAY_SECRET)) {
      relay.admitJob(job, LocalizedChannelKeys.mask(key, RELAY_SECRET, job));
    }
    try (LocalizedSpaceClientSideTranslatorPB task = LocalizedSpaceClientSideTranslatorPB
        .connect(conf, channel, 10_000, LocalizedTokenIdentifier.ofJob(job), key)) {
      assertTrue(task.reserve(map, BLOCK).granted());
    }
    // Alice holds a Kerberos ticket but no job's key: the channel takes tokens only.
    IOException finish = assertThrows(IOException.class, () -> login("alice").doAs(
        (PrivilegedExceptionAction<Void>) () -> {
          try (LocalizedSpaceClientSideTranslatorPB forger = LocalizedSpaceClientSideTranslatorPB
              .connect(conf, channel, 10_000)) {
            forger.finish(map);
          }
          return null;
        }));
    assertTrue(finish.getMessage().contains("Client cannot authenticate via:[TOKEN, KERBEROS]"),
        finish.getMessage());
    SpaceTuner tuner = ((MpCacheFsDataset) dataNode.getFSDataset()).getSpaceTuner();
    assertEquals(1, tuner.liveAttempts(), "the task's grant stands");
  }

  @Test
  void aCallerWithOnlyAnHdfsDelegationTokenAsksWhereBlocksAreCachedAndIsNoSlave()
      throws Exception {
    // As a job's ApplicationMaster: an HDFS delegation token obtained at submission, no ticket.
    Configuration client = new Configuration(conf);
    FileSystem.setDefaultUri(client, cluster.mini().getURI());
    Token<?> token = login("alice").doAs((PrivilegedExceptionAction<Token<?>>) () -> {
      try (FileSystem fs = FileSystem.newInstance(client)) {
        return fs.getDelegationToken("alice");
      }
    });
    UserGroupInformation job = UserGroupInformation.createRemoteUser("alice");
    job.addToken(token);
    Path file = new Path("/token/part-0");
    cluster.writeCached(file, BLOCK, 3);
    long block = cluster.mini().getFileSystem().getClient().getLocatedBlocks(file.toString(), 0)
        .get(0).getBlock().getBlockId();
    List<List<String>> holders = MasterCalls.as(job, client, masterAddress,
        master -> master.cachedOn(new long[] {block}));
    assertEquals(1, holders.size());
    assertFalse(holders.get(0).isEmpty(), "the block's SSD copy: " + holders);
    String uuid = cluster.mini().getDataNodes().get(0).getDatanodeUuid();
    Exception forged = assertThrows(Exception.class, () -> MasterCalls.as(job, client,
        masterAddress, master -> master.register(uuid, "localhost", new SlaveUsage(0, 0, 0, 0, 0,
            0, 0, "ok", 0, 0), new long[0])));
    assertTrue(refusal(AccessControlException.class, forged).getMessage().contains("alice"),
        forged.toString());
    Exception report = assertThrows(Exception.class,
        () -> MasterCalls.as(job, client, masterAddress, MpCacheMasterProtocol::report));
    assertTrue(refusal(AccessControlException.class, report).getMessage().contains("alice"),
        "a token is its user's, not a superuser's: " + report);
    UserGroupInformation withTicket = login("alice");
    MasterCalls.as(withTicket, client, masterAddress, master -> master.cachedOn(
        new long[] {block}));
    assertTrue(withTicket.getTokens().isEmpty(), "a caller with a ticket clones nothing");
  }

  @Test
  void anUnauthenticatedCallerIsRefused() {
    IOException e = assertThrows(IOException.class, () -> as(
        UserGroupInformation.createRemoteUser("eve"), master -> master.cachedOn(new long[] {1})));
    assertTrue(String.valueOf(e.getMessage()).contains("authenticate"), e.toString());
  }
}
