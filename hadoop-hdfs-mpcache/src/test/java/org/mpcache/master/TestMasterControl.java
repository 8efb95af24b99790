package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_EXCLUDE_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_HANDLERS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_PIN_SHARE_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_POLICY_KEY;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.master.namespace.DataSetControl;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MpCacheMasterProtocol.ControlOp;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;
import org.slf4j.LoggerFactory;

/**
 * An admin steers the cache of a running cluster (docs/operations.md, "Steering the cache"):
 * three DataNodes caching two blocks each, heartbeats driven by the test, so "at the next
 * heartbeat" is counted, not timed. The master's metrics are read over JMX as an operator's
 * tools read them.
 */
@Timeout(300)
class TestMasterControl {
  private static final int NODES = 3;
  private static final int BLOCK = CacheTestCluster.BLOCK_SIZE;
  private static final String MASTER_BEAN = "Hadoop:service=NameNode,name=" + MasterMetrics.SOURCE;

  private CacheTestCluster cluster;
  private Configuration conf;
  private InetSocketAddress masterAddress;

  @BeforeEach
  void start() throws IOException {
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.confWithMaster(masterAddress);
    cluster = CacheTestCluster.start("control", conf, NODES, null);
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Directory {@code dir} with one file of {@code blocks} blocks on each DataNode. */
  private List<Path> dataSet(String dir, int blocks) throws IOException {
    List<Path> files = new ArrayList<>();
    for (int node = 0; node < NODES; node++) {
      Path file = new Path(dir, "part-" + node);
      cluster.writeOn(file, blocks * BLOCK, dir.hashCode() + node, node);
      files.add(file);
    }
    return files;
  }

  private void read(List<Path> dataSet) throws Exception {
    for (Path file : dataSet) {
      cluster.read(file);
    }
    cluster.waitFillsEnded();
    cluster.heartbeatAll();
  }

  private List<LocatedBlock> blocks(List<Path> dataSet) throws IOException {
    List<LocatedBlock> blocks = new ArrayList<>();
    for (Path file : dataSet) {
      blocks.addAll(cluster.blocks(file));
    }
    return blocks;
  }

  private long cachedCopies(List<Path> dataSet) throws IOException {
    return blocks(dataSet).stream().filter(cluster::isCached).count();
  }

  private DataSetReport reported(String path) throws IOException {
    try (MasterProtocolClientSideTranslatorPB master =
        MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 10_000)) {
      return master.report().dataSets().stream().filter(d -> d.path().equals(path)).findFirst()
          .orElse(null);
    }
  }

  private String admin(int expectedExit, String... args) throws Exception {
    return MasterCalls.admin(conf, expectedExit, args);
  }

  /** Reads a data set often enough to be worth more than any other. */
  private void pressure(List<Path> hot) throws Exception {
    for (int round = 0; round < 6; round++) {
      read(hot);
    }
  }

  /**
   * Each SSD holds a block of the pinned data set and one of another; a hot data set read again
   * and again takes the other's room, never the pinned one's, before and after a NameNode
   * restart.
   */
  @Test
  void aPinnedDataSetOutlivesPressureAndANameNodeRestart() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    List<Path> pinned = dataSet("/pinned", 1);
    List<Path> other = dataSet("/other", 1);
    List<Path> hot = dataSet("/hot", 1);
    String answer = admin(0, "-pin", "/pinned/part-0");
    assertTrue(answer.startsWith("/pinned: pinned, TTL none, 0/3 blocks cached"), answer);
    read(pinned);
    assertEquals(NODES, cachedCopies(pinned), "admitted at its first read");
    read(other);
    assertEquals(NODES, cachedCopies(other));
    pressure(hot);
    assertEquals(NODES, cachedCopies(hot));
    assertEquals(0, cachedCopies(other), "the pressure took everything else");
    assertEquals(NODES, cachedCopies(pinned));
    assertTrue(reported("/pinned").pinned());
    waitForMetric("PinnedCopies", 3);

    cluster.mini().restartNameNode(true);
    cluster.waitMasterActive(conf, masterAddress);
    pressure(other);
    assertEquals(NODES, cachedCopies(other));
    assertEquals(0, cachedCopies(hot));
    assertEquals(NODES, cachedCopies(pinned), "the pin is kept in the namespace");
    assertTrue(reported("/pinned").pinned());
    assertEquals(List.of(DataSetControl.PIN_XATTR), new ArrayList<>(
        cluster.fs().getXAttrs(new Path("/pinned")).keySet()));

    assertTrue(admin(0, "-unpin", "/pinned").startsWith("/pinned: not pinned"));
    pressure(hot);
    assertTrue(cachedCopies(pinned) < NODES, "unpinned, it competes again");
  }

  @Test
  void freeEmptiesADataSetOnEveryNodeAtOneHeartbeatOfEach() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    List<Path> freed = dataSet("/freed", 1);
    read(freed);
    assertEquals(NODES, cachedCopies(freed));
    String json = admin(0, "-free", "/freed", "-json");
    assertTrue(json.contains("\"dataSet\" : \"/freed\"") && json.contains("\"cachedBlocks\" : 0"),
        json);
    cluster.heartbeatAll();
    assertEquals(0, cachedCopies(freed), "every copy left at one heartbeat of each slave");
    waitForMetric("EvictionsByAdmin", 3);
    for (Path file : freed) {
      cluster.read(file); // still served, from the HDDs
    }
  }

  /**
   * A load fills a data set no one read, each slave copying its blocks from its own replicas as
   * heartbeats hand them out; {@code -load -wait} prints the progress until every block is
   * settled.
   */
  @Test
  void aLoadFillsADataSetNoOneReadAndWaitPrintsItsProgress() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    List<Path> loaded = dataSet("/loaded", 2);
    CompletableFuture<String> waited = CompletableFuture.supplyAsync(() -> {
      try {
        return admin(0, "-load", "/loaded", "-wait");
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
    GenericTestUtils.waitFor(() -> {
      cluster.heartbeatAll(); // hands out the blocks, then reports their copies
      return waited.isDone();
    }, 100, 60_000, "-load -wait to end");
    String progress = waited.get();
    assertTrue(progress.startsWith("/loaded: not pinned, TTL none, 0/6 blocks cached, 6 loading"),
        progress);
    assertTrue(progress.trim().endsWith("6/6 blocks cached"), progress);
    cluster.waitFillsEnded();
    assertEquals(2 * NODES, cachedCopies(loaded), "no job read it");
    waitForMetric("LoadBlocksHandedOut", 2 * NODES);
    assertEquals("/loaded: not pinned, TTL none, 6/6 blocks cached",
        admin(0, "-load", "/loaded").trim(), "nothing left to load");
  }

  /**
   * A refresh re-reads a site file of the NameNode's: it applies a changed exclude prefix to the
   * running master, says that a changed handler count needs a restart, refuses a value it cannot
   * use (keeping what it has), and builds a fresh master for a changed policy.
   */
  @Test
  void aRefreshAppliesWhatCanChangeWithoutARestartAndSaysWhatCannot() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    File site = new File(cluster.baseDir(), "refreshed-site.xml");
    writeSite(site, Map.of());
    cluster.mini().getNameNode().getConf().addResource(new Path(site.toURI()));
    writeSite(site, Map.of(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/excluded",
        DFS_MPCACHE_MASTER_HANDLERS_KEY, "3"));
    String answer = admin(0, "-refresh");
    assertTrue(answer.contains("in effect now: " + DFS_MPCACHE_MASTER_EXCLUDE_KEY + "\n")
        && answer.contains("need a NameNode restart: " + DFS_MPCACHE_MASTER_HANDLERS_KEY),
        answer);
    List<Path> excluded = dataSet("/excluded", 1);
    List<Path> cached = dataSet("/cached", 1);
    read(excluded);
    read(cached);
    assertEquals(0, cachedCopies(excluded), "excluded since the refresh");
    assertEquals(NODES, cachedCopies(cached), "the same master: it kept its slaves");

    LogCapturer audit = LogCapturer.captureLogs(LoggerFactory.getLogger(MasterAudit.LOGGER));
    try {
      writeSite(site, Map.of(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/excluded",
          DFS_MPCACHE_MASTER_PIN_SHARE_KEY, "2"));
      admin(1, "-refresh");
      assertTrue(audit.getOutput().contains("cmd=mpCacheRefresh\tsrc=null\toutcome=not"
          + " refreshed, the master keeps its settings: invalid setting "
          + DFS_MPCACHE_MASTER_PIN_SHARE_KEY), audit.getOutput());
    } finally {
      audit.stopCapturing();
    }
    writeSite(site, Map.of(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/excluded",
        DFS_MPCACHE_MASTER_POLICY_KEY, "lru"));
    answer = admin(0, "-refresh");
    assertTrue(answer.contains("through a fresh master (it recovers from the slaves; ranks and"
        + " access history start anew): " + DFS_MPCACHE_MASTER_POLICY_KEY), answer);
    cluster.waitMasterActive(conf, masterAddress);
    try (MasterProtocolClientSideTranslatorPB master =
        MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 10_000)) {
      assertEquals("lru", master.report().policy());
    }
    assertEquals(NODES, cachedCopies(cached), "the fresh master adopted the copies");
    assertEquals(0, cachedCopies(excluded));
  }

  /** Writes a Hadoop configuration file holding {@code values}. */
  private static void writeSite(File file, Map<String, String> values) throws IOException {
    Configuration site = new Configuration(false);
    values.forEach(site::set);
    try (OutputStream out = new FileOutputStream(file)) {
      site.writeXml(out);
    }
  }

  @Test
  void aDataSetUnreadForLongerThanItsTtlLeavesTheCache() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    List<Path> expiring = dataSet("/expiring", 1);
    List<Path> kept = dataSet("/kept", 1);
    read(expiring);
    read(kept);
    admin(0, "-ttl", "/expiring", "1ms");
    admin(2, "-ttl", "/kept", "soon");
    GenericTestUtils.waitFor(() -> {
      cluster.heartbeatAll();
      try {
        return cachedCopies(expiring) == 0;
      } catch (IOException e) {
        return false;
      }
    }, 10, 30_000, "the TTL to expire /expiring");
    assertEquals(NODES, cachedCopies(kept));
    assertEquals("1", new String(cluster.fs().getXAttr(new Path("/expiring"),
        DataSetControl.TTL_XATTR), StandardCharsets.UTF_8));
    waitForMetric("EvictionsByTtl", 3);
    admin(0, "-ttl", "/expiring", "off");
    assertFalse(cluster.fs().getXAttrs(new Path("/expiring")).containsKey(
        DataSetControl.TTL_XATTR));
  }

  @Test
  void onlySuperusersSteerTheCacheAndEveryCallIsAudited() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    dataSet("/a", 1);
    LogCapturer audit = LogCapturer.captureLogs(LoggerFactory.getLogger(MasterAudit.LOGGER));
    try {
      UserGroupInformation mallory =
          UserGroupInformation.createUserForTesting("mallory", new String[] {"users"});
      Exception refused = assertThrows(Exception.class, () -> MasterCalls.as(mallory, conf,
          masterAddress, master -> master.control(ControlOp.FREE, "/a", 0)));
      MasterCalls.refusal(AccessControlException.class, refused);
      MasterCalls.refusal(AccessControlException.class, assertThrows(Exception.class,
          () -> MasterCalls.as(mallory, conf, masterAddress,
              master -> master.control(ControlOp.LOAD, "/a", 0))));
      MasterCalls.refusal(AccessControlException.class, assertThrows(Exception.class,
          () -> MasterCalls.as(mallory, conf, masterAddress, master -> master.refresh())));
      admin(0, "-pin", "/a");
      admin(1, "-pin", "/none");
      Exception relative = assertThrows(Exception.class, () -> MasterCalls.as(
          UserGroupInformation.getCurrentUser(), conf, masterAddress,
          master -> master.control(ControlOp.PIN, "a", 0)));
      assertTrue(relative.getMessage().contains("a path must be absolute"), relative.toString());
      waitForMetric("MasterFailures", 0);
      assertEquals(0L, ((Number) attribute("MasterFailures")).longValue());
      String lines = audit.getOutput();
      assertTrue(lines.contains("allowed=false\tugi=mallory (auth:SIMPLE)\tip=/127.0.0.1\t"
          + "cmd=mpCacheFree\tsrc=/a\toutcome=refused"), lines);
      assertTrue(lines.matches("(?s).*allowed=true\tugi=\\S+ \\(auth:SIMPLE\\)\tip=/127.0.0.1\t"
          + "cmd=mpCachePin\tsrc=/a\toutcome=ControlAnswer\\[dataSet=/a, pinned=true.*"), lines);
      assertTrue(lines.contains("cmd=mpCachePin\tsrc=/none\toutcome=failed: "), lines);
      assertTrue(lines.contains("allowed=false\tugi=mallory (auth:SIMPLE)\tip=/127.0.0.1\t"
          + "cmd=mpCacheLoad\tsrc=/a\toutcome=refused"), lines);
      assertTrue(lines.contains("allowed=false\tugi=mallory (auth:SIMPLE)\tip=/127.0.0.1\t"
          + "cmd=mpCacheRefresh\tsrc=null\toutcome=refused"), lines);
    } finally {
      audit.stopCapturing();
    }
    assertFalse(cluster.fs().getXAttrs(new Path("/a")).isEmpty());
  }

  @Test
  void theMastersMetricsShowItsCallsAndItsHoldOfTheNamesystemLockOverJmx() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
    read(dataSet("/a", 1));
    waitForMetric("AdmissionsAdmitted", 3);
    waitForMetric("RequestAdmissionNumOps", 3);
    waitForMetric("HeartbeatNumOps", 1);
    waitForMetric("NamesystemLockHeldNanos", 1);
    waitForMetric("RequestAdmissionNamesystemLockNumOps", 3);
    waitForMetric("Heartbeat60sNumOps", 0); // the percentiles are published
    waitForMetric("Active", 1);
    waitForMetric("CachedCopies", 3);
    waitForMetric("TrackedDataSets", 1);
    assertEquals(0L, ((Number) attribute("Recovering")).longValue());
    assertEquals(0L, ((Number) attribute("PendingEvictions")).longValue());
  }

  private static Object attribute(String name) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    return server.getAttribute(new ObjectName(MASTER_BEAN), name);
  }

  /** Waits until the master's JMX bean shows {@code name} at {@code atLeast} or more. */
  private static void waitForMetric(String name, long atLeast) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return ((Number) attribute(name)).longValue() >= atLeast;
      } catch (Exception e) {
        return false;
      }
    }, 100, 30_000, name + " >= " + atLeast + " in " + MASTER_BEAN);
  }
}
