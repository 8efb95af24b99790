package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.mpcache.conf.CachedPaths;
import org.mpcache.conf.MasterSettings;
import org.mpcache.master.namespace.DataSetControl;
import org.mpcache.master.namespace.Namespace;
import org.mpcache.protocol.AdmissionAnswer.Verdict;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.SlaveUsage;

/** The master's protocol behaviour over a fake namespace and a hand-driven clock. */
public class TestReplaceArbitrator {
  static final long BLOCK = 1024;
  private static final long RECOVERY_MS = 10_000;
  private static final long EXPIRY_MS = 5_000;
  private static final long IDLE_MS = 60_000;
  private static final long[] NONE = new long[0];

  /** Data set {@code d} is directory /d<d> of {@code sizes[d]} blocks, numbered d * 100 + i. */
  public static class FakeNamespace implements Namespace {
    static final int MAX_BLOCKS = 100;
    final int[] sizes;
    Set<String> live;
    Set<String> leaving = Set.of();
    /** What an admin set on data set i's path. */
    final Map<Integer, DataSetControl> controls = new HashMap<>();

    public FakeNamespace(Set<String> live, int... sizes) {
      this.live = live;
      this.sizes = sizes;
    }

    @Override
    public String blockPoolId() {
      return "BP-test";
    }

    @Override
    public long blockSizeBytes() {
      return BLOCK;
    }

    /** Each block is a file of its own. */
    @Override
    public BlockOwner[] ownersOf(long[] blockIds) {
      BlockOwner[] owners = new BlockOwner[blockIds.length];
      for (int i = 0; i < blockIds.length; i++) {
        int d = (int) (blockIds[i] / MAX_BLOCKS);
        owners[i] = d < sizes.length && blockIds[i] % MAX_BLOCKS < sizes[d]
            ? new BlockOwner(ref(d), true) : null;
      }
      return owners;
    }

    private DataSetRef ref(int d) {
      return new DataSetRef(1000 + d, "/d" + d, sizes[d],
          controls.getOrDefault(d, DataSetControl.NONE));
    }

    @Override
    public DataSetRef dataSetAt(String path) throws IOException {
      int d = Integer.parseInt(path.substring("/d".length()));
      if (d >= sizes.length) {
        throw new FileNotFoundException(path);
      }
      return ref(d);
    }

    /** Data set d's blocks, each with replicas on every live node in name order. */
    @Override
    public List<BlockReplicas> blocksOf(DataSetRef ref) {
      int d = (int) (ref.key() - 1000);
      List<String> holders = live.stream().sorted().toList();
      return java.util.stream.IntStream.range(0, sizes[d])
          .mapToObj(i -> new BlockReplicas(d * MAX_BLOCKS + i, holders)).toList();
    }

    @Override
    public Set<String> liveDataNodes() {
      return live;
    }

    @Override
    public boolean leavingService(String datanodeUuid) {
      return leaving.contains(datanodeUuid);
    }
  }

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final MasterCounter.Values counters = new MasterCounter.Values();

  private ReplaceArbitrator master(FakeNamespace namespace) {
    return master(namespace, Integer.MAX_VALUE);
  }

  private ReplaceArbitrator master(FakeNamespace namespace, int maxTrackedDataSets) {
    return new ReplaceArbitrator(new MasterSettings(new InetSocketAddress(0), 1, "mpcache", 1.0,
        0.01, "directory", new CachedPaths(List.of(), List.of()), RECOVERY_MS, EXPIRY_MS, 10, IDLE_MS,
        0.5, 2, new int[0], maxTrackedDataSets),
        namespace, now::get, counters);
  }

  private static SlaveUsage usage(int capacityBlocks) {
    return new SlaveUsage(capacityBlocks * BLOCK, 0, 0, 0, 0, 0, 0, "ok", 0, 0);
  }

  private static HeartbeatAnswer beat(ReplaceArbitrator master, String slave, long... hits) {
    return master.heartbeat(slave, usage(1), hits, NONE, NONE, NONE);
  }

  @Test
  void decidesOnlyOnceEveryLiveSlaveRegistered() {
    FakeNamespace namespace = new FakeNamespace(null, 3);
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(4), NONE);
    assertEquals(Verdict.RECOVERING, master.requestAdmission("a", 0, BLOCK, NONE).verdict(),
        "the NameNode cannot tell the live DataNodes yet");
    namespace.live = Set.of("a", "b");
    assertEquals(Verdict.RECOVERING, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
    master.register("b", "host-b", usage(4), NONE);
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
    assertEquals("active", master.report().state());
  }

  @Test
  void decidesAfterTheRecoveryTimeoutWhateverRegistered() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a", "b"), 3));
    master.register("a", "host-a", usage(4), NONE);
    assertTrue(master.recovering());
    for (long waited = 0; waited < RECOVERY_MS; waited += EXPIRY_MS / 2) {
      now.addAndGet(EXPIRY_MS / 2);
      master.heartbeat("a", usage(4), NONE, NONE, NONE, NONE);
    }
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
  }

  @Test
  void aDataSetUnreadForLongerThanItsTtlIsFreedOnEveryNodeAndFilledAgainWhenRead()
      throws Exception {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b"), 1, 1);
    namespace.controls.put(0, new DataSetControl(false, 60_000));
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(4), new long[] {0, 100});
    master.register("b", "host-b", usage(4), new long[] {0});
    assertEquals(0, beatBoth(master, 59_000).size());
    master.heartbeat("b", usage(4), new long[] {0}, NONE, NONE, NONE); // a read: the clock restarts
    assertEquals(0, beatBoth(master, 59_000).size(), "read 59 s ago");
    assertEquals(List.of(0L, 0L), beatBoth(master, 2_500), "unread for 61.5 s: gone on a and b");
    assertEquals(List.of(List.of(), List.of("a")), master.cachedOn(new long[] {0, 100}),
        "/d1 has no TTL");
    assertEquals(2, counters.get(MasterCounter.EVICTIONS_BY_TTL));
    assertEquals("/d0", master.controlled("/d0").dataSet());
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
  }

  @Test
  void copiesFreedWhileTheirSlaveWasSilentGoWhenItRegistersAgain() throws Exception {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b"), 1);
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(4), new long[] {0});
    master.register("b", "host-b", usage(4), NONE);
    assertEquals(0, master.free("/d0").cachedBlocks());
    for (long waited = 0; waited <= EXPIRY_MS; waited += EXPIRY_MS / 2) {
      now.addAndGet(EXPIRY_MS / 2);
      master.heartbeat("b", usage(4), NONE, NONE, NONE, NONE); // a is silent, then dropped
    }
    assertEquals(HeartbeatAnswer.REREGISTER, beat(master, "a"));
    master.register("a", "host-a", usage(4), new long[] {0}); // it still holds the copy
    assertArrayEquals(new long[] {0}, beat(master, "a").evict());
    assertEquals(List.of(List.of()), master.cachedOn(new long[] {0}));
  }

  @Test
  void aPinWinsOverATtl() throws Exception {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b"), 1);
    namespace.controls.put(0, new DataSetControl(true, 1_000));
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(4), new long[] {0});
    master.register("b", "host-b", usage(4), NONE);
    assertEquals(0, beatBoth(master, 10_000).size());
    assertEquals(List.of(List.of("a")), master.cachedOn(new long[] {0}));
  }

  /**
   * A load queues each uncached block for the replica node with the fewest loads, hands each
   * slave at most two at a time, and settles them by admission, copy reports or staleness.
   */
  @Test
  void aLoadHandsEachSlaveItsBlocksAFewAtATimeUntilEachIsSettled() throws Exception {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b"), 6, 1);
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(10), new long[] {0});
    master.register("b", "host-b", usage(10), NONE);
    assertEquals(5, master.load("/d0").loadingBlocks(), "block 0 is cached already");
    assertArrayEquals(new long[] {1, 3}, loadsFor(master, "a", 10), "ties go to a, then b");
    assertArrayEquals(new long[] {2, 4}, loadsFor(master, "b", 10));
    assertArrayEquals(NONE, loadsFor(master, "a", 10), "two in flight at most");
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 1, BLOCK, NONE).verdict());
    assertArrayEquals(new long[] {5}, loadsFor(master, "a", 10), "1 is settled: room for 5");
    master.heartbeat("b", usage(10), NONE, NONE, new long[] {2}, new long[] {4});
    ControlAnswer progress = master.controlled("/d0");
    assertEquals(2, progress.loadingBlocks(), "3 and 5 are still being copied");
    assertEquals(3, progress.cachedBlocks(), "0, 1 admitted, 2 reported");
    for (int beat = 0; beat < 3; beat++) { // past the stale time, the slaves beating
      now.addAndGet(EXPIRY_MS / 2 + 1);
      assertArrayEquals(NONE, loadsFor(master, "a", 10));
      loadsFor(master, "b", 10);
    }
    assertEquals(0, master.controlled("/d0").loadingBlocks(), "3 and 5 went stale");
    assertEquals(2, counters.get(MasterCounter.LOAD_BLOCKS_DROPPED));
    assertEquals(5, counters.get(MasterCounter.LOAD_BLOCKS_HANDED_OUT));

    assertEquals(3, master.load("/d0").loadingBlocks(), "3, 4 (its copy failed) and 5 again");
    assertEquals(0, master.free("/d0").loadingBlocks(), "a free cancels the load");
    assertArrayEquals(NONE, loadsFor(master, "a", 10));
    assertArrayEquals(NONE, loadsFor(master, "b", 10));
  }

  @Test
  void aLoadCountsWhatThePolicyRefusesAndLeavesOutNodesThatCannotCopy() throws Exception {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b", "c"), 2);
    namespace.controls.put(0, new DataSetControl(true, 0)); // pinned, beyond a's pin share
    namespace.leaving = Set.of("b");
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(1), NONE);
    assertThrows(IOException.class, () -> master.load("/d0"), "recovering: c is missing");
    master.register("b", "host-b", usage(10), NONE);
    master.register("c", "host-c", usage(0), NONE); // no cache to copy to
    assertEquals(2, master.load("/d0").loadingBlocks());
    assertArrayEquals(new long[] {0, 1}, loadsFor(master, "a", 1));
    assertEquals(Verdict.REJECT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
    assertEquals(Verdict.REJECT, master.requestAdmission("a", 1, BLOCK, NONE).verdict());
    ControlAnswer settled = master.controlled("/d0");
    assertEquals(0, settled.loadingBlocks());
    assertEquals(2, settled.refusedBlocks());
    master.load("/d0");
    assertEquals(0, master.controlled("/d0").refusedBlocks(), "a new load counts anew");
    namespace.leaving = Set.of("a", "b");
    assertArrayEquals(NONE, loadsFor(master, "a", 1), "a node leaving service loads nothing");
    assertEquals(0, master.controlled("/d0").loadingBlocks());
  }

  private long[] loadsFor(ReplaceArbitrator master, String slave, int capacityBlocks) {
    return master.heartbeat(slave, usage(capacityBlocks), NONE, NONE, NONE, NONE).load();
  }

  /** Slaves a and b beat every 2.5 s for {@code millis}; returns what they were told to evict. */
  private List<Long> beatBoth(ReplaceArbitrator master, long millis) {
    List<Long> evicted = new java.util.ArrayList<>();
    for (long waited = 0; waited < millis; waited += EXPIRY_MS / 2) {
      now.addAndGet(EXPIRY_MS / 2);
      for (String slave : List.of("a", "b")) {
        Arrays.stream(master.heartbeat(slave, usage(4), NONE, NONE, NONE, NONE).evict())
            .forEach(evicted::add);
      }
    }
    return evicted;
  }

  @Test
  void aDataNodeLeavingServiceGetsNoCopyAndIsNotOfferedAsAHolder() {
    FakeNamespace namespace = new FakeNamespace(Set.of("a", "b"), 3);
    ReplaceArbitrator master = master(namespace);
    master.register("a", "host-a", usage(4), new long[] {0});
    master.register("b", "host-b", usage(4), new long[] {0});
    assertEquals(List.of(List.of("a", "b")), sorted(master.cachedOn(new long[] {0})));

    namespace.leaving = Set.of("b");
    assertEquals(List.of(List.of("a")), master.cachedOn(new long[] {0}));
    assertEquals(Verdict.REJECT, master.requestAdmission("b", 1, BLOCK, NONE).verdict());
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 1, BLOCK, NONE).verdict());
  }

  private static List<List<String>> sorted(List<List<String>> holders) {
    return holders.stream().map(list -> list.stream().sorted().toList()).toList();
  }

  @Test
  void unknownSlavesAreToldToRegister() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a"), 3));
    assertTrue(beat(master, "a").reregister());
    assertEquals(Verdict.REREGISTER, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
    master.register("a", "host-a", usage(1), NONE);
    assertFalse(beat(master, "a").reregister());
  }

  @Test
  void evictedDataSetLeavesEveryNodeAtTheirNextHeartbeat() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("n0", "n1", "n2"), 3, 1));
    for (String node : List.of("n0", "n1", "n2")) {
      master.register(node, "host-" + node, usage(1), NONE);
    }
    // Data set 0 fills the cluster, one block per node.
    for (int i = 0; i < 3; i++) {
      assertEquals(Verdict.ADMIT, master.requestAdmission("n" + i, i, BLOCK, NONE).verdict());
    }
    // Data set 1 is first only recorded (the cache is full), then read again: admitted, and it
    // evicts data set 0 everywhere.
    assertEquals(Verdict.REJECT, master.requestAdmission("n0", 100, BLOCK, NONE).verdict());
    AdmissionAnswer second = master.requestAdmission("n0", 100, BLOCK, NONE);
    assertEquals(Verdict.ADMIT, second.verdict());
    assertArrayEquals(new long[] {0}, second.evict());
    assertArrayEquals(new long[] {1}, beat(master, "n1").evict());
    assertArrayEquals(new long[] {2}, beat(master, "n2").evict());
    assertArrayEquals(NONE, beat(master, "n2").evict(), "To_Del is handed over once");
    assertEquals(4, counters.get(MasterCounter.ADMISSIONS_ADMITTED));
    assertEquals(1, counters.get(MasterCounter.ADMISSIONS_REFUSED));
    assertEquals(1, counters.get(MasterCounter.DATA_SETS_EVICTED));
    assertEquals(1, counters.get(MasterCounter.EVICTIONS_FOR_ROOM));
    assertEquals(2, counters.get(MasterCounter.EVICTIONS_OF_DATA_SETS_ELSEWHERE));
    List<MasterReport.DataSetReport> cached = master.report().dataSets();
    assertEquals(1, cached.size());
    assertEquals("/d1", cached.get(0).path());
    assertEquals(List.of("host-n0"), cached.get(0).hostnames());
  }

  @Test
  void registrationReplacesWhatTheMasterBelievedOfTheSlave() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a"), 4));
    master.register("a", "host-a", usage(4), new long[] {0, 1, 999});
    assertEquals(2, master.report().dataSets().get(0).cachedBlocks(),
        "unknown blocks (999) are ignored");
    master.register("a", "host-a", usage(4), new long[] {2});
    MasterReport.DataSetReport dataSet = master.report().dataSets().get(0);
    assertEquals(1, dataSet.cachedBlocks());
    assertEquals(4, dataSet.totalBlocks());
    // A hit on a copy the master does not count is not one (it may have evicted it since the
    // read): copies come in through cached lists.
    beat(master, "a", 3);
    assertEquals(1, master.report().dataSets().get(0).cachedBlocks());
    master.heartbeat("a", usage(4), NONE, NONE, new long[] {3}, NONE);
    assertEquals(2, master.report().dataSets().get(0).cachedBlocks());
  }

  /**
   * /d0 and /d1 fill node n after five reads of /d3 elsewhere (so they are worth little as
   * victims); /d2, read twice, needs a victim. /d0 and /d1 tie, /d0 ranked first; a hit on /d0
   * that the slave brings with its request is counted first, and /d1 goes instead.
   */
  @Test
  void hitsBroughtWithAnAdmissionRequestAreCountedBeforeTheDecision() {
    for (boolean withHit : new boolean[] {false, true}) {
      ReplaceArbitrator master = master(new FakeNamespace(Set.of("n", "m"), 1, 1, 1, 1));
      master.register("n", "host-n", usage(2), NONE);
      master.register("m", "host-m", usage(2), NONE);
      for (int i = 0; i < 5; i++) {
        master.requestAdmission("m", 300, BLOCK, NONE);
      }
      master.requestAdmission("n", 0, BLOCK, NONE);
      master.requestAdmission("n", 100, BLOCK, NONE);
      assertEquals(Verdict.REJECT, master.requestAdmission("n", 200, BLOCK, NONE).verdict());
      AdmissionAnswer second = master.requestAdmission("n", 200, BLOCK,
          withHit ? new long[] {0} : NONE);
      assertEquals(Verdict.ADMIT, second.verdict());
      assertArrayEquals(new long[] {withHit ? 100 : 0}, second.evict(), "with a hit: " + withHit);
    }
  }

  @Test
  void copyChangesInHeartbeatsKeepThePictureTrue() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a"), 4));
    master.register("a", "host-a", usage(4), NONE);
    master.heartbeat("a", usage(4), NONE, NONE, new long[] {0, 1, 2}, NONE);
    master.heartbeat("a", usage(4), NONE, NONE, NONE, new long[] {1});
    MasterReport report = master.report();
    assertEquals(2, report.dataSets().get(0).cachedBlocks());
    assertEquals(4 * BLOCK, report.nodes().get(0).usage().capacityBytes());
  }

  @Test
  void aSilentSlaveIsForgottenUntilItRegistersAgain() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a", "b"), 4));
    master.register("a", "host-a", usage(4), new long[] {0});
    master.register("b", "host-b", usage(4), new long[] {1});
    now.addAndGet(EXPIRY_MS / 2);
    beat(master, "b");
    now.addAndGet(EXPIRY_MS / 2 + 1);
    MasterReport report = master.report();
    assertEquals(List.of("host-b"), report.nodes().stream().map(n -> n.hostname()).toList());
    assertEquals(1, report.dataSets().get(0).cachedBlocks());
    assertTrue(beat(master, "a").reregister());
  }

  /**
   * /d0 has block 0 on n0 and block 1 on n1 (one block of room each); /d1, read twice on n0,
   * evicts it: block 1 waits in n1's To_Del.
   */
  private ReplaceArbitrator dataSet0EvictedByN0() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("n0", "n1"), 2, 1));
    master.register("n0", "host-n0", usage(1), NONE);
    master.register("n1", "host-n1", usage(1), NONE);
    master.requestAdmission("n0", 0, BLOCK, NONE);
    master.requestAdmission("n1", 1, BLOCK, NONE);
    master.requestAdmission("n0", 100, BLOCK, NONE);
    assertEquals(Verdict.ADMIT, master.requestAdmission("n0", 100, BLOCK, NONE).verdict());
    return master;
  }

  @Test
  void aCondemnedCopyRegisteredAgainIsEvictedAtTheNextHeartbeat() {
    ReplaceArbitrator master = dataSet0EvictedByN0();
    // n1 restarts before its heartbeat brought the eviction, and registers with the copy.
    master.register("n1", "host-n1", usage(1), new long[] {1});
    assertArrayEquals(new long[] {1}, beat(master, "n1").evict());
    assertEquals(1, counters.get(MasterCounter.EVICTIONS_AFTER_REREGISTRATION));
    Set<String> cachedPaths = new HashSet<>();
    master.report().dataSets().forEach(d -> cachedPaths.add(d.path()));
    assertEquals(Set.of("/d1"), cachedPaths);
  }

  /**
   * n1's fill of block 1 is admitted, then its data set is evicted by n0 before n1's heartbeat
   * reports the copy: the report does not bring the copy back, the heartbeat's answer deletes it.
   */
  @Test
  void aCopyReportedAfterItsDataSetWasEvictedStaysEvicted() {
    ReplaceArbitrator master = dataSet0EvictedByN0();
    HeartbeatAnswer crossed = master.heartbeat("n1", usage(1), NONE, NONE, new long[] {1}, NONE);
    assertArrayEquals(new long[] {1}, crossed.evict());
    assertEquals(List.of(List.of()), master.cachedOn(new long[] {1}));
    assertArrayEquals(NONE, beat(master, "n1").evict());
  }

  @Test
  void historyRemembersDataSetsReadWithTheirSizes() {
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a"), 2, 3));
    master.register("a", "host-a", usage(8), NONE);
    master.requestAdmission("a", 0, BLOCK, NONE);
    master.requestAdmission("a", 1, BLOCK, NONE);
    master.heartbeat("a", usage(8), NONE, new long[] {100}, NONE, NONE);
    master.requestAdmission("a", 0, BLOCK, NONE);
    List<MasterReport.DataSetHistory> history = master.report().history();
    assertEquals(List.of("/d0", "/d1"), history.stream().map(h -> h.path()).toList());
    assertEquals(2, history.get(0).accesses(), "/d0 was read in two passes");
    assertEquals(3, history.get(1).blocks());
  }

  @Test
  void aMillionDataSetsReadOnceAreForgottenOnceIdleAndTheTablesShrinkBack() {
    int many = 1_000_000;
    int[] sizes = new int[many];
    Arrays.fill(sizes, 1);
    ReplaceArbitrator master = master(new FakeNamespace(Set.of("a"), sizes));
    master.register("a", "host-a", usage(2), NONE);
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());
    long[] readOnce = LongStream.range(1, many).map(d -> d * 100).toArray();
    master.heartbeat("a", usage(2), NONE, readOnce, new long[] {0}, NONE);
    int tracked = master.gauges().trackedDataSets();
    assertTrue(tracked >= many, "each data set recorded: " + tracked);

    // The slave keeps beating; time passes beyond the idle expiry, then each heartbeat forgets
    // a bounded batch.
    for (long waited = 0; waited <= IDLE_MS; waited += EXPIRY_MS / 2) {
      now.addAndGet(EXPIRY_MS / 2);
      master.heartbeat("a", usage(2), NONE, NONE, NONE, NONE);
    }
    for (int i = 0; i <= many / ReplaceArbitrator.FORGOTTEN_PER_HEARTBEAT; i++) {
      master.heartbeat("a", usage(2), NONE, NONE, NONE, NONE);
    }
    assertTrue(master.gauges().trackedDataSets() <= 4,
        "only the data set with a copy is left: " + master.gauges().trackedDataSets());
    MasterReport report = master.report();
    assertEquals(1, report.dataSets().size());
    assertEquals("/d0", report.dataSets().get(0).path(), "idle, but it holds a copy: kept");
    // A data set read again after being forgotten starts anew.
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 500, BLOCK, NONE).verdict());
    assertTrue(master.report().dataSets().stream().anyMatch(d -> d.path().equals("/d5")),
        "the data set read again is cached: " + master.report().dataSets());
  }

  /**
   * Beyond the cap on tracked data sets, each new one forgets the least recently seen that may
   * go: not /d0 (a copy), /d1 (pinned) nor /d2 (a TTL), seen first; the last seen stays too.
   */
  @Test
  void dataSetsOverTheCapGoButNotThoseWithACopyAPinOrATtl() {
    FakeNamespace namespace = new FakeNamespace(Set.of("a"), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    namespace.controls.put(1, new DataSetControl(true, 0));
    namespace.controls.put(2, new DataSetControl(false, 60_000));
    ReplaceArbitrator master = master(namespace, 3);
    master.register("a", "host-a", usage(8), NONE);
    assertEquals(Verdict.ADMIT, master.requestAdmission("a", 0, BLOCK, NONE).verdict());

    long[] others = LongStream.range(1, 10).map(d -> d * 100).toArray();
    master.heartbeat("a", usage(8), NONE, others, NONE, NONE);

    assertEquals(6, counters.get(MasterCounter.DATA_SETS_FORGOTTEN_OVER_CAP),
        "/d3 to /d8, each when the next came (7 with /d1 and /d2 let go)");
    assertEquals(List.of("/d0"), master.report().dataSets().stream().map(d -> d.path()).toList());
  }
}
