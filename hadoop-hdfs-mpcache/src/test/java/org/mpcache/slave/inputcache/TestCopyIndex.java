package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.FillFiles;
import org.mpcache.slave.inputcache.store.SsdStore;

/** The index of copies alone: what it serves, takes and refuses while replicas change. */
@Timeout(60)
class TestCopyIndex {
  private static final BlockKey KEY = new BlockKey("BP-1", 1);
  private static final LiveReplica REPLICA = new LiveReplica(7, 1000, StorageType.DISK);

  private SsdStore store;
  private CacheDir dir;
  private LocalArbiter arbiter;
  private CacheCounter.Values counters;
  private CopyIndex index;

  @BeforeEach
  void open() throws Exception {
    File ssd = GenericTestUtils.getTestDir("copy-index-" + System.nanoTime());
    Files.createDirectories(ssd.toPath());
    store = SsdStore.open(List.of(ssd), 10_000, new FileIoProvider(null, null),
        PosixFilePermissions.fromString("rwx------"), 10_000);
    dir = store.dirs().get(0);
    arbiter = new LocalArbiter(10_000);
    counters = new CacheCounter.Values();
    index = new CopyIndex(store.dirs(), arbiter, counters);
  }

  /** A copy of {@link #REPLICA} committed to the dir, as a fill leaves it. */
  private CachedCopy filled(CopyIndex.Staging staging) throws Exception {
    FillFiles files = store.createFill(dir, KEY, REPLICA.generationStamp());
    files.dataOut().write(new byte[1000]);
    files.metaOut().write(new byte[15]);
    files.dataOut().close();
    files.metaOut().close();
    return store.commit(files, KEY, REPLICA.generationStamp(), 1000, 15, 0);
  }

  @Test
  void aCopyIsServedOnlyForItsReplicaAndGeneration() throws Exception {
    CopyIndex.Staging staging = index.stageFill(KEY, 1015);
    CachedCopy copy = filled(staging);
    assertEquals(CopyIndex.Offer.TAKEN, index.commit(copy, staging, index.changes()));
    assertEquals(List.of(KEY), arbiter.cached());

    assertSame(copy, index.lookup(KEY, REPLICA, 7).hit());
    assertNull(index.lookup(KEY, REPLICA, 6).hit(), "another generation asked for");
    CopyIndex.Lookup changed = index.lookup(KEY, new LiveReplica(8, 1000, StorageType.DISK), 8);
    assertNull(changed.hit());
    assertSame(copy, changed.stale(), "the stale copy is removed for the caller to reclaim");
    assertEquals(0, index.cachedBlocks());
    assertEquals(0, dir.usedBytes());
    assertTrue(arbiter.cached().isEmpty());
  }

  @Test
  void whileAReplicaChangesNothingOfItIsServedFilledOrTaken() throws Exception {
    CopyIndex.Staging staging = index.stageFill(KEY, 1015);
    CachedCopy copy = filled(staging);
    long seen = index.changes();

    assertNull(index.beginChange(KEY));
    assertEquals(CopyIndex.Offer.RECHECK, index.commit(copy, staging, seen),
        "a change began after the caller checked the replica");
    assertEquals(CopyIndex.Offer.REFUSED, index.commit(copy, staging, index.changes()));
    assertNull(index.stageFill(KEY, 1015));
    index.endChange(KEY);

    CopyIndex.Staging again = index.stageFill(KEY, 1015);
    assertNotNull(again);
    assertEquals(CopyIndex.Offer.TAKEN, index.commit(filled(again), again, index.changes()));
    assertNull(index.lookup(KEY, REPLICA, 7).stale());
    index.beginChange(KEY);
    assertNull(index.lookup(KEY, REPLICA, 7).hit(), "a changing replica's copy is gone");
    assertEquals(1, counters.get(CacheCounter.INVALIDATIONS));
  }

  /**
   * A fill's room counts other fills the arbiter admitted as taken, not those it has not
   * decided yet (it counts them after this one), nor itself; a victim the arbiter names frees
   * its bytes, whether a copy or a fill under way (which is then not kept).
   */
  @Test
  void aFillsRoomCountsAdmittedFillsAndWhatItsVictimsFree() throws Exception {
    CopyIndex.Staging own = index.stageFill(KEY, 1015);
    index.admitted(own);
    assertEquals(10_000, index.freeBytesAfter(own, List.of()));
    BlockKey other = new BlockKey("BP-1", 2);
    CopyIndex.Staging undecided = index.stageFill(other, 1200);
    assertEquals(10_000, index.freeBytesAfter(own, List.of()));
    assertEquals(10_000, index.freeBytesAfter(own, List.of(other)), "it took no room yet");
    index.admitted(undecided);
    assertEquals(10_000 - 1200, index.freeBytesAfter(own, List.of()));
    assertEquals(10_000, index.freeBytesAfter(own, List.of(other, other, KEY)));
  }

  /**
   * The arbiter evicts a block whose fill is still under way (it counted the copy from its
   * admission): the fill is not kept, so the slave holds no copy the arbiter believes gone.
   */
  @Test
  void aFillEvictedBeforeItsCommitIsNotKept() throws Exception {
    CopyIndex.Staging staging = index.stageFill(KEY, 1015);
    CachedCopy copy = filled(staging);
    assertTrue(index.evict(List.of(KEY)).isEmpty(), "no copy to delete yet");
    assertEquals(CopyIndex.Offer.REFUSED, index.commit(copy, staging, index.changes()));
    assertEquals(0, index.cachedBlocks());
    assertEquals(0, index.fillsUnderWay());
    assertEquals(0, dir.stagedBytes(), "the evicted fill's room is free again");
  }

  @Test
  void aFillGoesOnlyWhereTheDeviceHasRoomBeyondFillsUnderWay() {
    dir.usableBytes(2500);
    assertNotNull(index.stageFill(new BlockKey("BP-1", 2), 1200));
    assertNotNull(index.stageFill(new BlockKey("BP-1", 3), 1200));
    assertNull(index.stageFill(new BlockKey("BP-1", 4), 1200), "2400 of 2500 bytes staged");
    dir.fail("test");
    assertNull(index.stageFill(new BlockKey("BP-1", 5), 10));
  }

  @Test
  void fillsCommittingAtOnceIntoANewSubdirAllSucceed() throws Exception {
    int fills = 64;
    List<FillFiles> written = new java.util.ArrayList<>();
    for (int i = 0; i < fills; i++) {
      // Block ids 256 apart share a subdir (id & 255).
      FillFiles files = store.createFill(dir, new BlockKey("BP-1", 7 + 256L * i), 1);
      files.dataOut().close();
      files.metaOut().close();
      written.add(files);
    }
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    List<CompletableFuture<CachedCopy>> commits = new java.util.ArrayList<>();
    for (int i = 0; i < fills; i++) {
      FillFiles files = written.get(i);
      BlockKey key = new BlockKey("BP-1", 7 + 256L * i);
      commits.add(CompletableFuture.supplyAsync(() -> {
        try {
          start.await();
          return store.commit(files, key, 1, 0, 0, 0);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }, java.util.concurrent.Executors.newSingleThreadExecutor()));
    }
    start.countDown();
    for (CompletableFuture<CachedCopy> commit : commits) {
      assertTrue(Files.exists(commit.get(30, TimeUnit.SECONDS).dataFile()));
    }
  }

  @Test
  void aWaitForRoomEndsWhenACopyLeaves() throws Exception {
    CopyIndex.Staging staging = index.stageFill(KEY, 1015);
    index.commit(filled(staging), staging, index.changes());
    CompletableFuture<Boolean> room = CompletableFuture.supplyAsync(() -> {
      try {
        return index.awaitUsedAtMost(0, 30_000);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    index.evict(List.of(KEY));
    assertTrue(room.get(30, TimeUnit.SECONDS));
    assertEquals(1, counters.get(CacheCounter.EVICTIONS));
    assertTrue(Files.exists(Path.of(filled(index.stageFill(KEY, 1015)).dataFile().toString())));
  }
}
