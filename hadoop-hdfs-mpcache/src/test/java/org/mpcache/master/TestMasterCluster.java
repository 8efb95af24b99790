package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.WholeSetPolicy;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.tools.FreePorts;

/**
 * The master in a NameNode with three slaves. Heartbeats are driven by the test (the interval is
 * an hour), so "within N heartbeats" is counted, not timed. Each DataNode caches two blocks. The
 * master runs its default policy unless a test names another with {@link MasterPolicy}.
 */
@Timeout(300)
class TestMasterCluster {
  private static final int NODES = 3;
  private static final int BLOCK = CacheTestCluster.BLOCK_SIZE;

  private CacheTestCluster cluster;
  private Configuration conf;
  private InetSocketAddress masterAddress;

  /** The master's policy for one test. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  private @interface MasterPolicy {
    String value();
  }

  @BeforeEach
  void start(TestInfo test) throws IOException {
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.confWithMaster(masterAddress);
    conf.set(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/scratch");
    test.getTestMethod().map(method -> method.getAnnotation(MasterPolicy.class))
        .ifPresent(policy -> conf.set(DFS_MPCACHE_MASTER_POLICY_KEY, policy.value()));
    cluster = CacheTestCluster.start("master", conf, NODES, null);
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private InputCache slave(int i) {
    return cluster.cache(i);
  }

  private MasterReport report() throws IOException {
    try (MasterProtocolClientSideTranslatorPB master =
        MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 10_000)) {
      return master.report();
    }
  }

  /** Beats until the master has every slave and decides. */
  private void waitMasterActive() throws Exception {
    cluster.waitMasterActive(conf, masterAddress);
  }

  /** A data set: directory {@code dir} with one file of {@code blocks} blocks on each node. */
  private Map<Path, byte[]> dataSet(String dir, int blocks, int... nodes) throws IOException {
    Map<Path, byte[]> files = new HashMap<>();
    for (int node : nodes) {
      Path file = new Path(dir, "part-" + node);
      files.put(file, cluster.writeOn(file, blocks * BLOCK, dir.hashCode() + node, node));
    }
    return files;
  }

  private void readAll(Map<Path, byte[]> dataSet) throws IOException {
    for (Map.Entry<Path, byte[]> file : dataSet.entrySet()) {
      cluster.readAndCheck(file.getKey(), file.getValue());
    }
  }

  private List<LocatedBlock> blocks(Map<Path, byte[]> dataSet) throws IOException {
    List<LocatedBlock> blocks = new ArrayList<>();
    for (Path file : dataSet.keySet()) {
      blocks.addAll(cluster.blocks(file));
    }
    return blocks;
  }

  /** Reads the data set, waits for its copies, and lets the master hear of them. */
  private void warm(Map<Path, byte[]> dataSet) throws Exception {
    readAll(dataSet);
    waitAllCached(dataSet);
    cluster.heartbeatAll();
  }

  private void waitAllCached(Map<Path, byte[]> dataSet) throws Exception {
    for (Path file : dataSet.keySet()) {
      cluster.waitCached(file);
    }
  }

  @Test
  void theDefaultPolicyMakesRoomOnTheReadingNodeOnlyAndNeverRefillsPastABetterDataSet()
      throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 2, 0, 1, 2);
    Map<Path, byte[]> b = dataSet("/b", 1, 0);
    warm(a); // every SSD is full of /a, admitted by the first data-set access
    // /a, just admitted, is protected while jobs may still be filling it: /b is refused until
    // the window of data-set accesses has passed, then it is worth more than /a.
    for (int read = 1; read < WholeSetPolicy.DEFAULT_PROTECTED_ACCESSES; read++) {
      readAll(b);
      cluster.waitFillsEnded(); // else the next read finds the fill under way and does not ask
      assertFalse(cluster.isCached(blocks(b).get(0)), "admitted at read " + read);
    }
    readAll(b);
    waitAllCached(b);
    cluster.heartbeatAll();
    int evicted = 0;
    for (LocatedBlock block : blocks(a)) {
      if (cluster.holderIndex(block) == 0) {
        evicted += cluster.isCached(block) ? 0 : 1;
      } else {
        assertTrue(cluster.isCached(block), "nothing is condemned on the other nodes");
      }
    }
    assertEquals(1, evicted, "one block of room on node 0, one copy of /a gone");
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    MetricsAsserts.assertCounter("EvictionsForRoom", 1L, metrics);
    MetricsAsserts.assertCounter("EvictionsOfDataSetsElsewhere", 0L, metrics);
    MetricsAsserts.assertCounter("DataSetsEvicted", 0L, metrics);

    // Broken, /a earns no job hits; refilling it would push out /b, worth more (and protected).
    readAll(a);
    cluster.waitFillsEnded();
    cluster.heartbeatAll();
    Map<String, Integer> cachedPerDataSet = new HashMap<>();
    report().dataSets().forEach(d -> cachedPerDataSet.put(d.path(), d.cachedBlocks()));
    assertEquals(Map.of("/a", 5, "/b", 1), cachedPerDataSet);
    assertEquals(0, cluster.total(CacheCounter.CORRUPT_DROPPED));
  }

  /**
   * A job's map reads its split's block, then on into the next block up to the end of its last
   * record: each block but a file's first is read twice a job, in whichever order the maps run.
   * The master counts one data-set access a job, as the simulation does.
   */
  @Test
  void mapsReadingIntoTheNextBlockCountOneDataSetAccessAJob() throws Exception {
    waitMasterActive();
    Path file = new Path("/records/part-0");
    byte[] records = cluster.writeOn(file, 3 * BLOCK, 7, 0);
    for (long job = 1; job <= 2; job++) {
      for (int split : new int[] {2, 0, 1}) {
        readSplit(file, records, split);
        // Each read settled before the next: a read that finds a fill under way is not asked for.
        cluster.waitFillsEnded();
        cluster.heartbeatAll();
      }
      MetricsAsserts.assertCounter("DataSetAccesses", job,
          MetricsAsserts.getMetrics(MasterMetrics.SOURCE));
    }
  }

  /** What a map of one block-sized split reads: the block, and 100 bytes of the next if any. */
  private void readSplit(Path file, byte[] records, int split) throws IOException {
    int from = split * BLOCK;
    int length = Math.min(BLOCK + 100, records.length - from);
    byte[] read = new byte[length];
    try (FSDataInputStream in = cluster.fs().open(file)) {
      in.seek(from);
      in.readFully(read);
    }
    assertArrayEquals(Arrays.copyOfRange(records, from, from + length), read);
  }

  @Test
  @MasterPolicy("mpcache")
  void mpCacheEvictsADataSetFromEveryNodeAtItsNextHeartbeat() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 2, 0, 1, 2);
    Map<Path, byte[]> b = dataSet("/b", 1, 0);
    warm(a); // every SSD is full of /a

    readAll(b); // first seen while the cache is full: only recorded
    cluster.waitFillsEnded(); // else the next read finds the fill under way and does not ask
    assertFalse(cluster.isCached(blocks(b).get(0)));
    readAll(b); // read again: worth more than /a, which is evicted on every node
    waitAllCached(b);
    for (LocatedBlock block : blocks(a)) {
      if (cluster.holderIndex(block) == 0) {
        assertFalse(cluster.isCached(block), "the requesting node evicts at once");
      } else {
        assertTrue(cluster.isCached(block), "other nodes wait for their heartbeat");
      }
    }
    cluster.heartbeatAll();
    for (LocatedBlock block : blocks(a)) {
      assertFalse(cluster.isCached(block), block.getBlock() + " left after one heartbeat");
    }
    // The NameNode's metrics count the evictions by cause: 2 of /a's 6 copies on node 0 made
    // room there, the other 4 were on nodes 1 and 2.
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    MetricsAsserts.assertCounter("DataSetsEvicted", 1L, metrics);
    MetricsAsserts.assertCounter("EvictionsForRoom", 2L, metrics);
    MetricsAsserts.assertCounter("EvictionsOfDataSetsElsewhere", 4L, metrics);
    readAll(a);
    cluster.waitFillsEnded(); // /a's admissions are decided before /b's hit reaches the master
    readAll(b);
    assertEquals(0, cluster.total(CacheCounter.CORRUPT_DROPPED));

    cluster.heartbeatAll();
    MasterReport report = report();
    assertEquals(NODES, report.nodes().size());
    assertEquals("/b", report.dataSets().get(0).path(), report.dataSets().toString());
    assertEquals(1, report.dataSets().get(0).cachedBlocks());
  }

  @Test
  void onlyJobInputIsCachedNotHadoopsStagingDirsNorExcludedPaths() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> staging = dataSet("/tmp/hadoop-yarn/staging/alice/.staging/job_1", 1, 0);
    Map<Path, byte[]> scratch = dataSet("/scratch/tmp", 1, 0);
    Map<Path, byte[]> input = dataSet("/in", 1, 0);
    readAll(staging);
    readAll(scratch);
    warm(input);
    assertFalse(cluster.isCached(blocks(staging).get(0)), "a staging file was cached");
    assertFalse(cluster.isCached(blocks(scratch).get(0)), "an excluded path was cached");
    assertEquals(List.of("/in"), report().dataSets().stream().map(d -> d.path()).toList());
    assertEquals(2, cluster.counter(0, CacheCounter.FILLS_NOT_ADMITTED));
  }

  @Test
  void aMasterRestartMidRunKeepsReadsRightAndRebuildsThePicture() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 1, 0, 1, 2);
    Map<Path, byte[]> c = dataSet("/c", 1, 1);
    warm(a);

    cluster.mini().restartNameNode(true);
    // The slaves have not heard of the restart: they keep serving hits, and a miss is decided
    // locally (the new master is recovering or does not know them yet).
    long hits = cluster.total(CacheCounter.HITS);
    readAll(a);
    assertEquals(hits + NODES, cluster.total(CacheCounter.HITS));
    readAll(c);
    cluster.waitCached(new Path("/c/part-1"));

    waitMasterActive();
    MasterReport report = report();
    Map<String, Integer> cachedPerDataSet = new HashMap<>();
    report.dataSets().forEach(d -> cachedPerDataSet.put(d.path(), d.cachedBlocks()));
    assertEquals(Map.of("/a", 3, "/c", 1), cachedPerDataSet,
        "the new master knows exactly what the slaves hold");
    for (int i = 0; i < NODES; i++) {
      assertTrue(slave(i).arbiterState().startsWith("master"), slave(i).arbiterState());
    }
    readAll(a);
    readAll(c);
  }

  @Test
  void aDeadMasterLeavesSlavesDecidingLocally() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 2, 0);
    cluster.mini().shutdownNameNode(0);
    cluster.heartbeatAll();
    assertTrue(slave(0).arbiterState().startsWith("local LRU"), slave(0).arbiterState());
    // With no NameNode no client can read; the slave's own policy still admits into its cache.
    cluster.mini().restartNameNode(true);
    readAll(a);
    cluster.waitCached(new Path("/a/part-0"));
    waitMasterActive();
    assertEquals(2, report().dataSets().get(0).cachedBlocks());
  }

  @Test
  void adminReportsNodesAndDataSets() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 1, 0, 1);
    warm(a);

    String report = admin(0, "-report");
    assertTrue(report.contains("active, policy " + ReplacementPolicies.DEFAULT + ", 3 slaves"),
        report);
    String dataSets = admin(0, "-datasets");
    assertTrue(dataSets.matches("(?s).*/a\\s+\\d+\\.\\d+\\s+2/2.*"), dataSets);
    String json = admin(0, "-datasets", "-json");
    assertTrue(json.contains("\"path\" : \"/a\"") && json.contains("\"cachedBlocks\" : 2"), json);
    assertTrue(admin(0, "-report", "-json").contains("\"capacityBytes\" : 614400"));
    LocatedBlock block = cluster.blocks(new Path("/a/part-1")).get(0);
    String replica = block.getLocations()[0].getXferAddr();
    String locations = admin(0, "-locations", "/a/part-1");
    assertTrue(locations.contains("1 blocks, 1 with an SSD copy"), locations);
    assertTrue(locations.matches("(?s).*" + block.getBlock().getBlockName() + "\\s+"
        + replica + "\\s+" + replica + "\\s*"), locations);
    admin(1, "-locations", "/a/none");
    admin(2, "-bogus");
  }

  @Test
  void theMasterNamesTheNodesHoldingEachBlockOnSsd() throws Exception {
    waitMasterActive();
    Map<Path, byte[]> a = dataSet("/a", 1, 0, 1);
    warm(a);
    List<LocatedBlock> blocks = blocks(a);
    long[] asked = new long[blocks.size() + 1];
    List<List<String>> expected = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      asked[i] = blocks.get(i).getBlock().getBlockId();
      expected.add(List.of(blocks.get(i).getLocations()[0].getDatanodeUuid()));
    }
    asked[blocks.size()] = 42; // no such block
    expected.add(List.of());
    try (MasterProtocolClientSideTranslatorPB master =
        MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 10_000)) {
      assertEquals(expected, master.cachedOn(asked));
    }
  }

  private String admin(int expectedExit, String... args) throws Exception {
    return MasterCalls.admin(conf, expectedExit, args);
  }
}
