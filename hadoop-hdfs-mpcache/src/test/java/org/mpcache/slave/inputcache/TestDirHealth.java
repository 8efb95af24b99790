package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A sick SSD stalls nothing but its own dir, is taken out of use, and comes back when well. */
@Timeout(120)
class TestDirHealth {
  private static final int BLOCK = 300_000;

  @Test
  void aHungSsdCallStallsNoOtherReadAndTakesItsDirOutOfUse() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("hung-delete")) {
      BlockKey cached = fixture.replicas.add(1, BLOCK);
      BlockKey uncached = fixture.replicas.add(2, BLOCK);
      fixture.fill(cached);
      fixture.faults.hang(OPERATION.DELETE);

      fixture.cache.evict(FakeReplicas.POOL, new long[] {cached.blockId()});
      GenericTestUtils.waitFor(() -> fixture.faults.hanging() == 1, 10, 30_000,
          "the delete hangs in the device");
      // Reads, the master's view and the metrics do not wait for it.
      assertArrayEquals(fixture.replicas.data(uncached), fixture.read(uncached));
      assertEquals("ok", fixture.cache.usage().state());
      assertFalse(fixture.cache.isCached(cached));
      GenericTestUtils.waitFor(() -> !fixture.cache.failedDirs().isEmpty(), 10, 30_000,
          "the dir out of use");
      assertTrue(fixture.cache.failedDirs().get(0).contains("has not returned"),
          fixture.cache.failedDirs().get(0));
      assertArrayEquals(fixture.replicas.data(uncached), fixture.read(uncached));

      fixture.faults.release();
      GenericTestUtils.waitFor(() -> fixture.cache.failedDirs().isEmpty(), 10, 30_000,
          "the dir back in use once its check passes");
      fixture.fill(uncached);
    }
  }

  /**
   * A copy whose deletion hangs is left on its dir, which goes out of use: later changes of its
   * block's replica neither wait for the device again nor send it another deletion.
   */
  @Test
  void aCopyLeftOnAHungDirCostsLaterReplicaChangesNothing() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("stranded")) {
      BlockKey key = fixture.replicas.add(13, BLOCK);
      fixture.fill(key);
      fixture.faults.hang(OPERATION.DELETE);
      fixture.cache.evict(FakeReplicas.POOL, new long[] {key.blockId()});
      GenericTestUtils.waitFor(() -> fixture.faults.hanging() == 1
          && !fixture.cache.failedDirs().isEmpty(), 10, 30_000, "the dir out of use");

      for (int change = 0; change < 3; change++) {
        fixture.cache.replicaChanging(FakeReplicas.POOL, key.blockId());
        fixture.cache.replicaChanged(FakeReplicas.POOL, key.blockId());
      }
      assertEquals(1, fixture.faults.hanging(), "no other deletion sent to the hung device");
    }
  }

  @Test
  void aDirWithAStuckReadStaysOutOfUseThoughItsChecksPass() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("stuck-read")) {
      BlockKey key = fixture.replicas.add(10, BLOCK);
      fixture.fill(key);
      fixture.faults.hang(OPERATION.READ);

      CompletableFuture<byte[]> stuck = CompletableFuture.supplyAsync(() -> {
        try {
          return fixture.read(key);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      // Out of use, with its one copy (the dir shows failed a moment before its copy is dropped).
      GenericTestUtils.waitFor(() -> !fixture.cache.failedDirs().isEmpty()
          && fixture.cache.counter(CacheCounter.DIR_FAILED_DROPPED) == 1, 10, 30_000,
          "the dir out of use");
      // Checks (a probe file made and deleted) pass, three of them; reads would still hang.
      long dropped = fixture.cache.counter(CacheCounter.DIR_FAILED_DROPPED);
      long checks = fixture.cache.counter(CacheCounter.DIR_CHECKS);
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.DIR_CHECKS) >= checks + 3,
          10, 30_000, "three more checks");
      assertFalse(fixture.cache.failedDirs().isEmpty(), "still out of use");
      assertEquals(dropped, fixture.cache.counter(CacheCounter.DIR_FAILED_DROPPED),
          "the dir did not come back with its copy to fail again");
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key), "from the HDD");
      assertEquals(1, fixture.faults.hanging(), "no second read went to the device");

      fixture.faults.release();
      assertArrayEquals(fixture.replicas.data(key), stuck.get(30, TimeUnit.SECONDS));
      GenericTestUtils.waitFor(() -> fixture.cache.failedDirs().isEmpty(), 10, 30_000,
          "the dir back once the read returned");
    }
  }

  @Test
  void aReplicaChangeWaitsForItsCopysDeletionAtMostTheIoTimeout() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("hung-change")) {
      BlockKey key = fixture.replicas.add(3, BLOCK);
      fixture.fill(key);
      File oldCopy = fixture.copyFile(key);
      fixture.faults.hang(OPERATION.DELETE);

      CompletableFuture<Void> change = CompletableFuture.runAsync(
          () -> fixture.cache.replicaChanging(key.blockPoolId(), key.blockId()));
      change.get(30, TimeUnit.SECONDS);
      assertTrue(fixture.revoked.contains(key));
      assertFalse(fixture.cache.failedDirs().isEmpty(), "its device did not answer in time");
      byte[] appended = new byte[BLOCK + 100];
      new Random(4).nextBytes(appended);
      fixture.replicas.change(key, appended);
      fixture.cache.replicaChanged(key.blockPoolId(), key.blockId());

      // Back in use, the dir keeps no copy of the old replica.
      fixture.faults.release();
      GenericTestUtils.waitFor(() -> fixture.cache.failedDirs().isEmpty() && !oldCopy.exists(),
          10, 30_000, "the dir back, without the stale copy");
      assertArrayEquals(appended, fixture.read(key));
    }
  }

  /**
   * An unmounted device leaves its bare mount point, which passes every check: the dir stays out
   * of use, saying why, and nothing is written there (it is the OS disk now).
   */
  @Test
  void anEmptyMountPointInPlaceOfAFailedDirStaysOutOfUse() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("unmounted")) {
      BlockKey key = fixture.replicas.add(5, BLOCK);
      fixture.fill(key);

      FileUtil.fullyDelete(fixture.ssd);
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
      GenericTestUtils.waitFor(() -> !fixture.cache.enabled(), 10, 30_000, "the cache off");
      Files.createDirectories(fixture.ssd.toPath()); // the bare mount point

      GenericTestUtils.waitFor(() -> fixture.cache.failedDirs().get(0)
          .contains("its cache layout is gone"), 10, 30_000, "the reason it stays out");
      long checks = fixture.cache.counter(CacheCounter.DIR_CHECKS);
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.DIR_CHECKS) >= checks + 3,
          10, 30_000, "three more checks");
      assertFalse(fixture.cache.enabled(), "still out of use: " + fixture.cache.failedDirs());
      assertTrue(fixture.cache.failedDirs().get(0).contains(fixture.ssd.toString()));
      assertFalse(new File(fixture.ssd, "mpcache").exists(), "no layout made on the mount point");
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key), "from the HDD");
    }
  }

  /**
   * A short-circuit hand-out opens the data, then the checksums: a dir that fails in between
   * changes nothing of what the first open decided (before, the reader got the HDD replica's
   * checksums beside the copy's data, and the copy's checksum file stayed open).
   */
  @Test
  void aDirFailingBetweenTheTwoOpensOfAHandOutKeepsTheCopysChecksums() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("failing-handout")) {
      BlockKey key = fixture.replicas.add(12, BLOCK);
      fixture.fill(key);
      ExtendedBlock block = fixture.replicas.block(key);
      fixture.cache.shortCircuitSlotRegistering(key.blockPoolId(), key.blockId());
      fixture.slots.add(new Object()); // the DataNode registers the request's slot
      try (InputStream data = fixture.cache.openData(block, 0, ReadCaller.SHORT_CIRCUIT_FDS)) {
        assertEquals(1, fixture.cache.counter(CacheCounter.HITS), "the copy's data");
        FileUtil.fullyDelete(fixture.ssd);
        GenericTestUtils.waitFor(() -> !fixture.cache.enabled(), 10, 30_000, "the cache off");
        try (LengthInputStream meta = fixture.cache.openMeta(block,
            ReadCaller.SHORT_CIRCUIT_FDS)) {
          assertTrue(meta.getWrappedStream() instanceof FileInputStream,
              "the copy's checksum file, not the HDD replica's: " + meta.getWrappedStream());
        }
      }
    }
  }

  @Test
  void aDirMissingAtStartIsSizedAndUsedWhenItAppears() throws Exception {
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.capacityBytes = 0; // 90 % of the device, known only once the dir is there
    settings.missingAtStart = true;
    try (CacheFixture fixture = settings.open("missing-at-start")) {
      BlockKey key = fixture.replicas.add(11, BLOCK);
      assertFalse(fixture.cache.enabled());
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key));

      Files.createDirectories(fixture.ssd.toPath());
      GenericTestUtils.waitFor(fixture.cache::enabled, 10, 30_000, "the dir in use");
      assertTrue(fixture.cache.capacityBytes() > BLOCK, "sized from its device");
      fixture.fill(key);
    }
  }

  @Test
  void theScrubberFindsRotAndDropsAndRevokesTheCopy() throws Exception {
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.scrubBytesPerSecond = 64 << 20;
    try (CacheFixture fixture = settings.open("scrub")) {
      BlockKey rotten = fixture.replicas.add(7, BLOCK);
      BlockKey sound = fixture.replicas.add(8, BLOCK);
      BlockKey changed = fixture.replicas.add(9, BLOCK);
      fixture.fill(rotten);
      fixture.fill(sound);
      fixture.fill(changed);
      try (var file = new java.io.RandomAccessFile(fixture.copyFile(rotten), "rw")) {
        file.seek(BLOCK / 3);
        file.write(~file.read());
      }
      // A replica that changed without the cache being told.
      fixture.replicas.change(changed, fixture.replicas.data(changed));

      GenericTestUtils.waitFor(() -> fixture.revoked.contains(rotten)
          && fixture.revoked.contains(changed), 10, 30_000, "both found and revoked");
      assertEquals(1, fixture.cache.counter(CacheCounter.CORRUPT_DROPPED));
      assertEquals(1, fixture.cache.counter(CacheCounter.STALE_DISCARDED));
      assertTrue(fixture.cache.isCached(sound));
      assertFalse(fixture.cache.isCached(rotten));
      GenericTestUtils.waitFor(() -> fixture.cache.lastScrubPassMillis() > 0, 10, 30_000,
          "a whole pass timed");
      assertTrue(fixture.cache.counter(CacheCounter.COPIES_SCRUBBED) >= 1);
    }
  }
}
