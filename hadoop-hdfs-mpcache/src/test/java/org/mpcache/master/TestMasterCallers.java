package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;
import static org.mpcache.master.MasterCalls.refusal;

import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.SlaveProofs;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SaslRpcServer.AuthMethod;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.SlaveProof;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;

/**
 * Whom the master takes calls from (docs/security.md, "The master"), on a simple-auth cluster:
 * a forger who reaches the master's port cannot register a made-up DataNode, heartbeat or ask
 * for admissions as one, nor read the report unless an HDFS superuser.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TestMasterCallers {
  private static final SlaveUsage EMPTY_SSD =
      new SlaveUsage(0, 0, 0, 0, 1_000_000, 0, 0, "ok", 0, 0);

  private CacheTestCluster cluster;
  private Configuration conf;
  private InetSocketAddress masterAddress;
  private final UserGroupInformation mallory =
      UserGroupInformation.createUserForTesting("mallory", new String[] {"users"});

  @BeforeAll
  void start() throws Exception {
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MpCacheMasterPlugin.class.getName());
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h");
    // The secret slaves prove themselves with: the block keys NameNode and DataNodes share.
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    cluster = CacheTestCluster.start("callers", conf, 2, null);
    cluster.waitMasterActive(conf, masterAddress);
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private <T> T as(UserGroupInformation user, MasterCalls.Call<T> call) throws Exception {
    return MasterCalls.as(user, conf, masterAddress, call);
  }

  @Test
  void aMadeUpDataNodeCannotRegisterHeartbeatOrAskForAdmission() throws Exception {
    UserGroupInformation self = UserGroupInformation.getCurrentUser();
    List<MasterCalls.Call<?>> forgeries = List.of(
        master -> master.register("made-up", "evil", EMPTY_SSD, new long[0]),
        master -> master.heartbeat("made-up", EMPTY_SSD, new long[] {1}, new long[0],
            new long[0], new long[0]),
        master -> master.requestAdmission("made-up", 1073741825L, 1 << 20, new long[0]));
    for (MasterCalls.Call<?> forgery : forgeries) {
      assertRefused("as DataNode made-up, which the NameNode does not know as live",
          () -> as(self, forgery));
    }
    MasterReport report = as(self, MpCacheMasterProtocol::report);
    assertEquals(2, report.nodes().size(), "only the real slaves: " + report.nodes());
    for (DataNode dataNode : cluster.mini().getDataNodes()) {
      assertTrue(report.nodes().stream()
          .anyMatch(node -> node.datanodeUuid().equals(dataNode.getDatanodeUuid())));
      assertTrue(CacheTestCluster.cache(dataNode).arbiterState().startsWith("master"),
          CacheTestCluster.cache(dataNode).arbiterState());
    }
  }

  /** A heartbeat as {@code dataNode}'s slave, carrying {@code proofs}. */
  private HeartbeatAnswer heartbeatAs(DataNode dataNode, List<SlaveProof> proofs)
      throws Exception {
    SlaveUsage usage = CacheTestCluster.ssdCache(dataNode).usage();
    return MasterCalls.as(UserGroupInformation.getCurrentUser(), conf, masterAddress, proofs,
        master -> master.heartbeat(dataNode.getDatanodeUuid(), usage, new long[0], new long[0],
            new long[0], new long[0]));
  }

  private void assertRefused(String why, Executable call) {
    Exception e = assertThrows(Exception.class, call);
    String message = refusal(AccessControlException.class, e).getMessage();
    assertTrue(message.contains(why), message);
  }

  @Test
  void aForgerOnADataNodesHostWithoutItsBlockKeysCannotActAsIt() throws Exception {
    DataNode victim = cluster.mini().getDataNodes().get(0);
    DataNode other = cluster.mini().getDataNodes().get(1);
    long refusedBefore = refusedCalls();
    // From the DataNode's own address, as any user with a shell on its host can call.
    assertRefused("it carries no proof for block pool", () -> heartbeatAs(victim, List.of()));
    assertRefused("its proof was made for " + SlaveProofs.userOf(other.getDatanodeUuid()),
        () -> heartbeatAs(victim, SlaveProofs.of(other)));
    SlaveProof real = SlaveProofs.of(victim).get(0);
    assertRefused("its proof was not made with the NameNode's block keys",
        () -> heartbeatAs(victim, List.of(new SlaveProof(real.identifier(),
            new byte[real.password().length]))));
    // A real block token the NameNode issues to whoever names himself the slave's user.
    Path file = new Path("/readable");
    cluster.write(file, 10, 1);
    Token<BlockTokenIdentifier> read = UserGroupInformation
        .createRemoteUser(SlaveProofs.userOf(victim.getDatanodeUuid()))
        .doAs((PrivilegedExceptionAction<Token<BlockTokenIdentifier>>) () ->
            ((DistributedFileSystem) FileSystem.newInstance(conf)).getClient()
                .getLocatedBlocks(file.toString(), 0).get(0).getBlockToken());
    assertRefused("with modes [READ]", () -> heartbeatAs(victim,
        List.of(new SlaveProof(read.getIdentifier(), read.getPassword()))));
    // The DataNode's own proof is what lets the same call through.
    assertFalse(heartbeatAs(victim, SlaveProofs.of(victim)).reregister());
    assertEquals(refusedBefore + 4, refusedCalls(), "each refusal counted for operators");
  }

  private static long refusedCalls() {
    return MetricsAsserts.getLongCounter("SlaveCallsRefused",
        MetricsAsserts.getMetrics(MasterMetrics.SOURCE));
  }

  private String admin(int expectedExit, String... args) throws Exception {
    return MasterCalls.admin(conf, expectedExit, args);
  }

  @Test
  void aSuperuserSwitchesTheMasterOffAndOnWithoutARestart() throws Exception {
    assertRefused("mallory", () -> as(mallory, master -> master.switchMaster(false)));
    assertTrue(admin(0, "-master", "off").contains(": off (was on)"));
    Exception off = assertThrows(Exception.class,
        () -> as(UserGroupInformation.getCurrentUser(), MpCacheMasterProtocol::report));
    assertTrue(off.getMessage().contains("is switched off"), off.getMessage());
    cluster.heartbeatAll();
    for (DataNode dataNode : cluster.mini().getDataNodes()) {
      String state = CacheTestCluster.cache(dataNode).arbiterState();
      assertTrue(state.startsWith("local LRU"), state);
    }
    assertTrue(admin(0, "-master", "on").contains(": on (was off)"));
    cluster.waitMasterActive(conf, masterAddress); // a fresh master, from the registrations
    assertEquals(2, as(UserGroupInformation.getCurrentUser(), MpCacheMasterProtocol::report)
        .nodes().size());
  }

  @Test
  void theReportIsForHdfsSuperusersAndBlockHoldersForAnyone() throws Exception {
    assertRefused("mallory", () -> as(mallory, MpCacheMasterProtocol::report));
    assertEquals(2, as(UserGroupInformation.getCurrentUser(), MpCacheMasterProtocol::report)
        .nodes().size());
    // Schedulers ask as the job's user; block ids name no path.
    assertEquals(List.of(List.of()), as(mallory, master -> master.cachedOn(new long[] {42})));
    // The master answers a bounded batch under its lock; the client asks about more in batches.
    int many = MpCacheMasterProtocol.MAX_CACHED_ON_BLOCKS + 1;
    assertEquals(many, as(mallory, master -> master.cachedOn(new long[many])).size());
  }

  private static UserGroupInformation kerberos(String principal, AuthMethod method) {
    return UserGroupInformation.createRemoteUser(principal + "@EXAMPLE.COM", method);
  }

  @Test
  void underKerberosOnlyTheDataNodesOwnPrincipalMakesItsSlavesCalls() {
    String pattern = "dn/_HOST@EXAMPLE.COM";
    String host = "dn1.example.com";
    UserGroupInformation dn1 = kerberos("dn/dn1.example.com", AuthMethod.KERBEROS);
    assertDoesNotThrow(() -> MasterCallers.checkPrincipal("u1", dn1, pattern, host));
    for (UserGroupInformation forger : List.of(
        kerberos("dn/dn2.example.com", AuthMethod.KERBEROS),
        UserGroupInformation.createProxyUser(dn1.getUserName(),
            kerberos("oozie/gw.example.com", AuthMethod.KERBEROS)),
        kerberos("dn/dn1.example.com", AuthMethod.TOKEN))) {
      AccessControlException e = assertThrows(AccessControlException.class,
          () -> MasterCallers.checkPrincipal("u1", forger, pattern, host));
      assertTrue(e.getMessage().contains("whose principal is dn/dn1.example.com@EXAMPLE.COM"),
          e.getMessage());
    }
    AccessControlException unset = assertThrows(AccessControlException.class,
        () -> MasterCallers.checkPrincipal("u1", dn1, null, host));
    assertTrue(unset.getMessage().contains("dfs.datanode.kerberos.principal is not set"));
  }

  @Test
  void aCallerAtAnotherAddressThanItsDataNodesIsRefused() {
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> MasterCallers.checkAddress("dn-1", "10.0.0.9", "10.0.0.5"));
    assertTrue(e.getMessage().contains("a call from 10.0.0.9 as DataNode dn-1, which the"
        + " NameNode knows at 10.0.0.5"), e.getMessage());
    assertDoesNotThrow(() -> MasterCallers.checkAddress("dn-1", "10.0.0.5", "10.0.0.5"));
  }
}
