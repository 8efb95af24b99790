package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Copies made while a reader streams from the HDD, and what the arbiter's answer does to them. */
@Timeout(120)
class TestFills {
  private static final int BLOCK = 300_000;

  /** An arbiter whose answer the test gives, after the cache has asked. */
  private static final class AnsweringArbiter extends DelegatingArbiter {
    final CountDownLatch asked = new CountDownLatch(1);
    final CompletableFuture<Admission> answer = new CompletableFuture<>();

    @Override
    public Admission requestAdmission(BlockKey block, long bytes,
      Room room) {
      asked.countDown();
      return answer.join();
    }
  }

  /** An arbiter that gives the answers the test hands it, in turn, and records its calls. */
  private static final class RecordingArbiter extends DelegatingArbiter {
    final List<String> events = new CopyOnWriteArrayList<>();
    private final Queue<CompletableFuture<Admission>> answers;

    @SafeVarargs
    RecordingArbiter(CompletableFuture<Admission>... answers) {
      this.answers = new ConcurrentLinkedQueue<>(List.of(answers));
    }

    @Override
    public Admission requestAdmission(BlockKey block, long bytes, Room room) {
      events.add("asked");
      return answers.remove().join();
    }

    @Override
    public void onCached(BlockKey block, long bytes) {
      events.add("cached");
      super.onCached(block, bytes);
    }

    @Override
    public void onRemoved(BlockKey block) {
      events.add("removed");
      super.onRemoved(block);
    }
  }

  @Test
  void aMissIsServedWholeWhileTheArbiterDecidesAndTheCopyCostsNoSecondHddPass()
      throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("admission-async")) {
      BlockKey key = fixture.replicas.add(1, BLOCK);

      assertArrayEquals(fixture.replicas.data(key), fixture.read(key),
          "served from the HDD before any answer");
      assertTrue(arbiter.asked.await(30, TimeUnit.SECONDS), "the arbiter is asked");
      assertFalse(fixture.cache.isCached(key), "nothing kept before the answer");

      arbiter.answer.complete(Admission.admit(List.of()));
      fixture.waitCached(key);
      assertEquals(1, fixture.replicas.dataOpens(), "one HDD pass served the reader and the copy");
      assertEquals(1, fixture.cache.counter(CacheCounter.FILLS));
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
      assertEquals(1, fixture.cache.counter(CacheCounter.HITS));
      assertEquals(1, fixture.replicas.dataOpens());
    }
  }

  @Test
  void aCopyTheArbiterRefusesIsDeletedAndItsSsdBytesCounted() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("admission-refused")) {
      BlockKey key = fixture.replicas.add(2, BLOCK);
      fixture.read(key);
      // The provisional copy is written whole before the answer comes.
      GenericTestUtils.waitFor(() -> provisionalDataBytes(fixture) == BLOCK, 10, 30_000,
          "the provisional copy written");

      arbiter.answer.complete(Admission.REJECTED);
      GenericTestUtils.waitFor(() -> fixture.tmpFiles().length == 0, 10, 30_000,
          "the provisional copy deleted");
      GenericTestUtils.waitFor(
          () -> fixture.cache.counter(CacheCounter.PROVISIONAL_BYTES_DISCARDED) >= BLOCK, 10,
          30_000, "its SSD bytes counted");
      assertFalse(fixture.cache.isCached(key));
      assertEquals(1, fixture.cache.counter(CacheCounter.FILLS_NOT_ADMITTED));
      assertEquals(0, fixture.cache.usedBytes());
    }
  }

  /**
   * A refused copy was never counted cached by the arbiter: telling it the block is gone would,
   * once a later read of the block is admitted, drop that admitted copy from the master's view
   * until a heartbeat reports the copy committed.
   */
  @Test
  void aRefusedCopyIsNotReportedRemovedSoALaterAdmissionStands() throws Exception {
    CompletableFuture<Admission> refusal = new CompletableFuture<>();
    RecordingArbiter arbiter = new RecordingArbiter(refusal,
        CompletableFuture.completedFuture(Admission.admit(List.of())));
    try (CacheFixture fixture = withArbiter(arbiter).open("refused-then-admitted")) {
      BlockKey key = fixture.replicas.add(24, BLOCK);
      fixture.read(key);
      // Refused once written whole, so the discarded bytes below are the whole block's.
      GenericTestUtils.waitFor(() -> provisionalDataBytes(fixture) == BLOCK, 10, 30_000,
          "the provisional copy written");
      refusal.complete(Admission.REJECTED);
      GenericTestUtils.waitFor(
          () -> fixture.cache.counter(CacheCounter.PROVISIONAL_BYTES_DISCARDED) >= BLOCK, 10,
          30_000, "the refused copy discarded");

      fixture.read(key);
      fixture.waitCached(key);
      assertEquals(List.of("asked", "asked", "cached"), arbiter.events,
          "what the arbiter heard of the block");
    }
  }

  /** A copy is forced to the device before it is committed: after a crash it is whole or gone. */
  @Test
  void aCopysFilesAreForcedToTheSsdBeforeItIsCommitted() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("synced")) {
      BlockKey key = fixture.replicas.add(31, BLOCK);
      fixture.fill(key);
      assertEquals(2, fixture.faults.syncs(), "its data and checksum files");
    }
  }

  /**
   * The writer reads the replica's checksum file in one request, not 2 KB beside each window:
   * every read of it during the reader's pass draws the HDD away from the reader's stream.
   */
  @Test
  void aFillReadsTheReplicasChecksumFileInOneRequest() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("checksums-once")) {
      BlockKey key = fixture.replicas.add(30, 8 * Fill.WINDOW_BYTES);
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
      fixture.waitCached(key);
      assertEquals(1, fixture.replicas.fillWriterMetaReads(), "checksum file reads by the fill");
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key), "the copy verified");
      assertEquals(1, fixture.cache.counter(CacheCounter.HITS));
    }
  }

  /**
   * A reader that stops before the end of the block (TeraSort's client samples the first
   * records of each split and closes) or skips part of it: the arbiter was asked, and may have
   * evicted copies for this one, so the rest of the block is read in the background and the
   * copy is made.
   */
  @Test
  void aReaderThatStopsOrSkipsEarlyLeavesTheRestOfTheCopyToTheBackground() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("reader-stops")) {
      BlockKey stopped = fixture.replicas.add(20, BLOCK);
      byte[] replica = fixture.replicas.data(stopped);
      assertArrayEquals(Arrays.copyOf(replica, 4096), fixture.read(stopped, 0, 4096));
      fixture.waitCached(stopped);
      assertEquals(2, fixture.replicas.dataOpens(), "the reader's pass and the background's rest");
      assertArrayEquals(replica, fixture.read(stopped), "the copy holds the replica's bytes");
      assertEquals(1, fixture.cache.counter(CacheCounter.HITS));

      BlockKey skipped = fixture.replicas.add(21, BLOCK);
      ExtendedBlock block = fixture.replicas.block(skipped);
      InputStream meta = fixture.cache.openMeta(block, ReadCaller.CLIENT_READ);
      try (InputStream data = fixture.cache.openData(block, 0, ReadCaller.CLIENT_READ)) {
        IOUtils.readFully(data, new byte[4096], 0, 4096);
        IOUtils.skipFully(data, 8192);
        IOUtils.readFully(data, new byte[512], 0, 512);
      } finally {
        IOUtils.closeStream(meta);
      }
      fixture.waitCached(skipped);
      assertArrayEquals(fixture.replicas.data(skipped), fixture.read(skipped));
      assertEquals(0, fixture.cache.counter(CacheCounter.FILLS_ABORTED));
    }
  }

  /**
   * A reader that outruns the SSD writer by more than a fill may queue leaves the rest of the
   * copy to the background under the one answer asked for its read: asking again would count a
   * second access of the block at the master, and its pass detection a second access of the
   * data set (docs/benchmarks.md, "Since the headline").
   */
  @Test
  void aReaderThatOutrunsTheSsdWriterLeavesTheRestToTheBackgroundWithoutAskingAgain()
      throws Exception {
    CompletableFuture<Admission> admit = CompletableFuture.completedFuture(
        Admission.admit(List.of()));
    RecordingArbiter arbiter = new RecordingArbiter(admit, admit, admit, admit);
    CacheFixture.Settings settings = withArbiter(arbiter);
    settings.capacityBytes = 16 << 20;
    // The background producer waits for the writer that long; the hangs end well before.
    settings.ioTimeoutMillis = 30_000;
    try (CacheFixture fixture = settings.open("writer-behind")) {
      // The writer holds at most one window while its write hangs, the queue 17: the reader
      // finds the queue full in the middle of the first block, and at its end (the last part
      // window or the end mark) in the second.
      int window = Fill.WINDOW_BYTES;
      outrunTheWriter(fixture, 40, (Fill.MAX_QUEUED_WINDOWS + 8) * window);
      assertEquals(List.of("asked", "cached"), arbiter.events, "what the arbiter heard");
      outrunTheWriter(fixture, 41, (Fill.MAX_QUEUED_WINDOWS + 1) * window + window / 2);
      assertEquals(List.of("asked", "cached", "asked", "cached"), arbiter.events,
          "what the arbiter heard of the block whose reader left at its end");
      assertEquals(0, fixture.cache.counter(CacheCounter.FILLS_ABORTED));
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_LEFT_BY_READERS)
          == 2, 10, 30_000, "both fills settled as left by their readers");
    }
  }

  /** Reads a new block whole while the SSD's writes hang, then lets them go on. */
  private static void outrunTheWriter(CacheFixture fixture, long blockId, int length)
      throws Exception {
    BlockKey key = fixture.replicas.add(blockId, length);
    fixture.faults.hang(OPERATION.WRITE);
    assertArrayEquals(fixture.replicas.data(key), fixture.read(key),
        "served whole from the HDD while the SSD writes hang");
    fixture.faults.release();
    fixture.waitCached(key);
    long hits = fixture.cache.counter(CacheCounter.HITS);
    assertArrayEquals(fixture.replicas.data(key), fixture.read(key), "the copy verified");
    assertEquals(hits + 1, fixture.cache.counter(CacheCounter.HITS));
  }

  /** A block the arbiter refuses is read no further than its reader read it. */
  @Test
  void aRefusedBlockWhoseReaderStoppedEarlyIsNotReadInTheBackground() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("reader-stops-refused")) {
      BlockKey key = readFirstChunks(fixture, 23);
      assertTrue(arbiter.asked.await(30, TimeUnit.SECONDS), "the arbiter is asked");
      arbiter.answer.complete(Admission.REJECTED);
      waitLeftFillSettled(fixture);
      // The writer counts the abort after it has cleared its files: wait for it, not race it.
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) == 1, 10,
          30_000, "the fill's writer gave it up");
      assertFalse(fixture.cache.isCached(key));
      assertEquals(1, fixture.replicas.dataOpens(), "only the reader's pass");
    }
  }

  /**
   * Each fill whose reader left holds a writer until its rest is read: beyond
   * {@link Fills#MAX_LEFT_WAITING} waiting at once, the next is given up, and the writers left
   * still copy for whole-block readers.
   */
  @Test
  void readersLeavingEarlyTakeAtMostHalfTheWriters() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("readers-leave")) {
      List<BlockKey> left = new ArrayList<>();
      for (int i = 0; i <= Fills.MAX_LEFT_WAITING; i++) {
        left.add(readFirstChunks(fixture, 30 + i));
      }
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) == 1, 10,
          30_000, "the fill beyond the cap given up");
      assertEquals(1, fixture.cache.counter(CacheCounter.BACKGROUND_FILLS_DROPPED));

      BlockKey whole = fixture.replicas.add(50, BLOCK);
      assertArrayEquals(fixture.replicas.data(whole), fixture.read(whole));
      arbiter.answer.complete(Admission.admit(List.of()));
      fixture.waitCached(whole);
      for (BlockKey key : left.subList(0, Fills.MAX_LEFT_WAITING)) {
        fixture.waitCached(key);
      }
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_LEFT_BY_READERS)
          == Fills.MAX_LEFT_WAITING, 10, 30_000, "the waiting fills settled");
      assertFalse(fixture.cache.isCached(left.get(Fills.MAX_LEFT_WAITING)));
    }
  }

  /**
   * Fills whose readers left, admitted while the background thread is busy and its queue full:
   * the one that finds no place is given up and leaves nothing; the others are copied.
   */
  @Test
  void aReaderLeftFillThatFindsTheBackgroundQueueFullIsGivenUp() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    CacheFixture.Settings settings = withArbiter(arbiter);
    settings.backgroundQueue = 1;
    try (CacheFixture fixture = settings.open("reader-left-queue-full")) {
      List<BlockKey> left = List.of(readFirstChunks(fixture, 26), readFirstChunks(fixture, 27),
          readFirstChunks(fixture, 28));
      fixture.replicas.holdDataOpens();
      arbiter.answer.complete(Admission.admit(List.of()));
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.BACKGROUND_FILLS_DROPPED)
          == 1 && fixture.replicas.dataOpensWaiting() == 1, 10, 30_000,
          "one fill fed, one queued behind it, one given up");
      fixture.replicas.releaseDataOpens();

      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_LEFT_BY_READERS)
          == left.size() && fixture.tmpFiles().length == 0, 10, 30_000, "all settled");
      assertEquals(2, left.stream().filter(fixture.cache::isCached).count());
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) == 1, 10,
          30_000, "the writer of the fill given up counted it");
      for (BlockKey key : left) {
        assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
      }
    }
  }

  /** The replica changes (an append, say) after the reader left: the copy is not kept. */
  @Test
  void aReplicaChangedBeforeTheBackgroundReadsTheRestIsNotCopied() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("reader-left-replica-changed")) {
      BlockKey key = readFirstChunks(fixture, 24);
      byte[] appended = Arrays.copyOf(fixture.replicas.data(key), BLOCK);
      appended[BLOCK - 1] ^= 1;
      fixture.replicas.change(key, appended);
      arbiter.answer.complete(Admission.admit(List.of()));
      waitLeftFillSettled(fixture);
      assertFalse(fixture.cache.isCached(key));
      assertEquals(0, fixture.cache.counter(CacheCounter.FILLS));
      assertArrayEquals(appended, fixture.read(key), "the new bytes, from the HDD");
    }
  }

  /** The HDD fails the background's open: the fill is cleared and the block can be filled later. */
  @Test
  void aBackgroundReadThatCannotOpenTheReplicaLeavesNothingBehind() throws Exception {
    AnsweringArbiter arbiter = new AnsweringArbiter();
    try (CacheFixture fixture = withArbiter(arbiter).open("reader-left-open-fails")) {
      BlockKey key = readFirstChunks(fixture, 25);
      fixture.replicas.failDataOpens(true);
      arbiter.answer.complete(Admission.admit(List.of()));
      waitLeftFillSettled(fixture);
      assertFalse(fixture.cache.isCached(key));
      assertEquals(0, fixture.cache.usedBytes());

      fixture.replicas.failDataOpens(false);
      fixture.fill(key);
    }
  }

  /** With background fills off, a reader that stops early leaves no copy, as before. */
  @Test
  void withoutBackgroundFillsAReaderThatStopsEarlyLeavesNoCopy() throws Exception {
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.backgroundThreads = 0;
    try (CacheFixture fixture = settings.open("reader-stops-no-background")) {
      BlockKey key = readFirstChunks(fixture, 22);
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) == 1, 10,
          30_000, "the fill given up");
      assertFalse(fixture.cache.isCached(key));
      assertEquals(0, fixture.tmpFiles().length);
    }
  }

  /** A new block whose reader reads its first 4 KB and leaves. */
  private static BlockKey readFirstChunks(CacheFixture fixture, long blockId) throws Exception {
    BlockKey key = fixture.replicas.add(blockId, BLOCK);
    fixture.read(key, 0, 4096);
    return key;
  }

  /** Settled counts a fill fed in the background only once its feed has ended. */
  private static void waitLeftFillSettled(CacheFixture fixture) throws Exception {
    GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_LEFT_BY_READERS) == 1
        && fixture.tmpFiles().length == 0, 10, 30_000, "the fill settled and cleared");
  }

  private static CacheFixture.Settings withArbiter(CacheArbiter arbiter) {
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.arbiter = arbiter;
    return settings;
  }

  private static long provisionalDataBytes(CacheFixture fixture) {
    File tmp = new File(fixture.ssd, "mpcache/tmp");
    File[] files = tmp.listFiles(file -> !file.getName().endsWith(".meta"));
    return files == null || files.length == 0 ? -1 : files[0].length();
  }

  @Test
  void aWriterThatFailsReleasesTheBackgroundCopyFeedingIt() throws Exception {
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.capacityBytes = 64 << 20;
    try (CacheFixture fixture = settings.open("writer-fails")) {
      // More windows than a fill may queue: the producer must not wait on a writer that is gone.
      BlockKey large = fixture.replicas.add(3, 12 << 20);
      BlockKey next = fixture.replicas.add(4, BLOCK);
      fixture.faults.fail(OPERATION.WRITE);

      shortCircuitMiss(fixture, large);
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) >= 1, 10,
          30_000, "the failed fill given up");
      fixture.faults.release();

      // The one background thread is free again: the next copy is made.
      shortCircuitMiss(fixture, next);
      fixture.waitCached(next);
      assertFalse(fixture.cache.isCached(large));
      assertEquals(0, fixture.tmpFiles().length);
    }
  }

  @Test
  void aFullSsdEndsTheFillNotTheRead() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("full-ssd")) {
      BlockKey key = fixture.replicas.add(5, BLOCK);
      fixture.faults.full();

      assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
      GenericTestUtils.waitFor(() -> fixture.cache.counter(CacheCounter.FILLS_ABORTED) == 1, 10,
          30_000, "the fill given up");
      assertFalse(fixture.cache.isCached(key));
      assertEquals(0, fixture.tmpFiles().length);
      assertTrue(fixture.cache.enabled(), "a full device is not a failed dir");

      fixture.faults.release();
      fixture.fill(key);
    }
  }

  @Test
  void replicasOnSsdInMemoryOrProvidedAndStripedBlocksAreNeverCopied() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("never-copied")) {
      long id = 10;
      for (StorageType storage : new StorageType[] {StorageType.SSD, StorageType.RAM_DISK,
          StorageType.NVDIMM, StorageType.PROVIDED}) {
        BlockKey key = fixture.replicas.add(id++, BLOCK, storage);
        assertArrayEquals(fixture.replicas.data(key), fixture.read(key));
        shortCircuitMiss(fixture, key);
      }
      // An internal block of an erasure-coded block group (the striped id range).
      BlockKey striped = fixture.replicas.add(Long.MIN_VALUE + 16, BLOCK);
      assertTrue(striped.striped());
      assertArrayEquals(fixture.replicas.data(striped), fixture.read(striped));
      BlockKey archive = fixture.replicas.add(id, BLOCK, StorageType.ARCHIVE);

      fixture.fill(archive);
      assertEquals(1, fixture.cache.counter(CacheCounter.FILLS), "only the ARCHIVE replica");
      assertEquals(1, fixture.cache.cachedBlocks());
    }
  }

  /** What a legacy short-circuit reader's miss does: a copy made in the background. */
  private static void shortCircuitMiss(CacheFixture fixture, BlockKey key) {
    fixture.cache.localPathInfo(fixture.replicas.block(key),
        new BlockLocalPathInfo(fixture.replicas.block(key), "/hdd/data", "/hdd/meta"));
  }
}
