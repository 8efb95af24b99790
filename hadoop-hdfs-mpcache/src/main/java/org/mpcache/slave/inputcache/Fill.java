package org.mpcache.slave.inputcache;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.mpcache.slave.inputcache.store.FillFiles;
import org.mpcache.slave.inputcache.store.SsdIoException;

/**
 * One block being copied to the SSD from bytes read off its HDD replica: a provisional copy,
 * kept only if the arbiter admits the block ({@link #answer()}, asked while the bytes flow).
 * The producer (the reader's thread, or a background copy) hands over windows of data; a writer
 * thread writes them to a temporary file, verifies them against the replica's checksums, which
 * it reads from the replica's meta file (whole, up to {@link #MAX_CHECKSUM_READ_BYTES}) and
 * copies beside them, and hands the closed
 * files to {@link Fills} to commit. A completed fill is therefore a verified copy.
 *
 * <p>The reader never waits for the SSD: when the writer falls {@link #MAX_QUEUED_WINDOWS}
 * windows behind, the reader leaves the rest to a background producer ({@link #readerLeft}),
 * which waits at most the dir's I/O timeout.
 */
final class Fill implements Runnable {
  /** Bytes a window holds. */
  static final int WINDOW_BYTES = 256 << 10;
  /** Windows a fill may hold in memory while the SSD catches up: 4 MB. */
  static final int MAX_QUEUED_WINDOWS = 16;
  /**
   * Most bytes of the replica's checksum file the writer reads at once: all of a 128 MB block's
   * (CRC32C per 512 bytes) with its header. Read in step with the windows, 2 KB each, the
   * checksums would take the HDD's head off the reader's stream once a window; read whole, once
   * a block. At most {@link Fills#MAX_CONCURRENT_FILLS} writers hold one: 16 MB.
   */
  static final int MAX_CHECKSUM_READ_BYTES = (1 << 20) + ChecksumLayout.HEADER_BYTES;
  private static final byte[] END = new byte[0];
  private static final byte[] ABORT = new byte[0];

  /** The writer fell behind a reader that must not wait. */
  static final class WriterBehindException extends IOException {
    private static final long serialVersionUID = 1L;

    WriterBehindException() {
      super("the SSD writes fell more than " + MAX_QUEUED_WINDOWS + " windows behind the reader");
    }
  }

  /** The producer gave the fill up. */
  private static final class AbortedException extends IOException {
    private static final long serialVersionUID = 1L;

    AbortedException(String why) {
      super(why);
    }
  }

  private record Window(byte[] data, int length) {
  }

  private final BlockKey key;
  private final LiveReplica replica;
  private final CopyIndex.Staging staging;
  private final Fills fills;
  private final long producerWaitMillis;
  private final CompletableFuture<Admission> answer = new CompletableFuture<>();
  private final CompletableFuture<Void> checksumsRead = new CompletableFuture<>();
  private final BlockingQueue<Window> queue = new ArrayBlockingQueue<>(MAX_QUEUED_WINDOWS + 1);
  /** Producer side: the window being filled, and how much of the block has been handed over. */
  private byte[] window;
  private int buffered;
  private long handedOver;
  private boolean ended;
  private volatile String abortReason;
  /** Bytes the writer has written to the SSD (data and checksums). */
  private volatile long writtenBytes;

  /** Bytes of the checksum file copied, known once the writer read the replica's header. */
  private volatile long metaBytes;

  Fill(BlockKey key, LiveReplica replica, CopyIndex.Staging staging, Fills fills,
      long producerWaitMillis) {
    this.key = key;
    this.replica = replica;
    this.staging = staging;
    this.fills = fills;
    this.producerWaitMillis = producerWaitMillis;
    this.window = new byte[(int) Math.min(WINDOW_BYTES, Math.max(1, replica.length()))];
  }

  BlockKey key() {
    return key;
  }

  LiveReplica replica() {
    return replica;
  }

  CopyIndex.Staging staging() {
    return staging;
  }

  long metaBytes() {
    return metaBytes;
  }

  long writtenBytes() {
    return writtenBytes;
  }

  /**
   * Completed once the writer has read the replica's checksum header and found it fit to verify
   * a copy by; completed exceptionally when the fill ends before (a replica without checksums,
   * type NULL, is never copied). The arbiter is asked only then: a copy that cannot be made
   * must not cost others their room.
   */
  CompletableFuture<Void> checksumsRead() {
    return checksumsRead;
  }

  /** The arbiter's answer, completed by {@link Fills} when it comes. */
  CompletableFuture<Admission> answer() {
    return answer;
  }

  /** True once every byte of the block has been accepted. */
  boolean complete() {
    return accepted() == replica.length();
  }

  /** Bytes of the block accepted so far, from its start. */
  long accepted() {
    return handedOver + buffered;
  }

  /** True once the fill was given up, by its producer or its writer. */
  boolean givenUp() {
    return abortReason != null;
  }

  /**
   * The reader this fill rode on leaves it before the end of the block ({@code why}): it
   * stopped, skipped or outran the writer. The rest is read from the replica in the background
   * ({@link Fills#finishInBackground}), under the answer already asked for.
   */
  void readerLeft(String why) {
    fills.finishInBackground(this, why);
  }

  // ---- Producer ----------------------------------------------------------------------------

  /**
   * Takes the next bytes of the block, in order.
   *
   * @param mayWait whether the producer may wait for the writer (a background copy, at most
   *     the I/O timeout) or not (a reader, which then gets {@link WriterBehindException} and
   *     leaves the fill, every byte before the one that found the queue full accepted)
   */
  void accept(byte[] data, int off, int len, boolean mayWait) throws IOException {
    if (accepted() + len > replica.length()) {
      throw new IOException("more bytes than the replica's " + replica.length());
    }
    while (len > 0) {
      int n = Math.min(len, window.length - buffered);
      System.arraycopy(data, off, window, buffered, n);
      buffered += n;
      off += n;
      len -= n;
      if (buffered == window.length) {
        handOver(mayWait);
      }
    }
  }

  /** Hands over the rest; the writer then completes the copy. */
  void finish(boolean mayWait) throws IOException {
    if (!complete()) {
      throw new IOException("only " + accepted() + " of " + replica.length()
          + " bytes were read");
    }
    if (buffered > 0) {
      handOver(mayWait);
    }
    enqueue(new Window(END, 0), mayWait);
    ended = true;
  }

  private void handOver(boolean mayWait) throws IOException {
    enqueue(new Window(window, buffered), mayWait);
    handedOver += buffered;
    window = new byte[window.length];
    buffered = 0;
  }

  private void enqueue(Window next, boolean mayWait) throws IOException {
    if (abortReason != null) {
      throw new AbortedException("fill already given up: " + abortReason);
    }
    if (!mayWait) {
      if (!queue.offer(next)) {
        throw new WriterBehindException();
      }
      return;
    }
    try {
      if (!queue.offer(next, producerWaitMillis, TimeUnit.MILLISECONDS)) {
        throw new IOException("the SSD writer took no data for " + producerWaitMillis + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the SSD writer");
    }
    if (abortReason != null) {
      throw new AbortedException("fill given up: " + abortReason);
    }
  }

  /** Gives the fill up (no-op once the producer finished); the writer deletes what it wrote. */
  void abort(String why) {
    if (ended || abortReason != null) {
      return;
    }
    abortReason = why;
    queue.clear();
    queue.offer(new Window(ABORT, 0));
  }

  // ---- Writer ------------------------------------------------------------------------------

  /**
   * The writer: reads the replica's checksum header (which {@link #checksumsRead()} tells the
   * arbiter's asker), then drains the windows to the SSD, verifying them, forces the files to
   * the device and has them committed.
   */
  @Override
  public void run() {
    FillFiles files = null;
    try (LengthInputStream hddMeta = fills.openReplicaMeta(key, replica)) {
      if (hddMeta == null) {
        throw new IOException("the replica has no checksum file");
      }
      InputStream sums = new BufferedInputStream(hddMeta,
          (int) Math.max(1, Math.min(hddMeta.getLength(), MAX_CHECKSUM_READ_BYTES)));
      ChecksumLayout layout = ChecksumLayout.read(sums, replica.length());
      layout.checkMetaLength(hddMeta.getLength());
      metaBytes = layout.metaLength();
      checksumsRead.complete(null);
      files = fills.store().createFill(staging.dir(), key, replica.generationStamp());
      copy(files, layout, sums);
      files.syncAndClose();
    } catch (AbortedException e) {
      closeQuietly(files);
      checksumsRead.completeExceptionally(e);
      fills.abandoned(this, files, abortReason, null);
      return;
    } catch (SsdIoException e) {
      giveUp(files, "SSD write failed: " + e.getMessage(), e);
      return;
    } catch (ChecksumException e) {
      giveUp(files, "the HDD replica does not match its checksums: " + e.getMessage(), null);
      return;
    } catch (IOException e) {
      giveUp(files, e.toString(), null);
      return;
    } catch (InterruptedException e) {
      giveUp(files, "interrupted", null);
      return;
    }
    fills.written(this, files);
  }

  /** The writer stops: a producer still handing over windows is told at its next one. */
  private void giveUp(FillFiles files, String why, SsdIoException ssdError) {
    if (abortReason == null) {
      abortReason = why;
    }
    checksumsRead.completeExceptionally(new IOException(why));
    queue.clear();
    closeQuietly(files);
    fills.abandoned(this, files, why, ssdError);
  }

  private static void closeQuietly(FillFiles files) {
    if (files != null) {
      files.closeQuietly();
    }
  }

  private void copy(FillFiles files, ChecksumLayout layout, InputStream sums)
      throws IOException, InterruptedException {
    files.metaOut().write(layout.header());
    writtenBytes += ChecksumLayout.HEADER_BYTES;
    ChunkVerifier verifier = new ChunkVerifier(layout, sums, files.metaOut(),
        "mpCache fill of " + key);
    while (true) {
      Window next = queue.take();
      if (next.data() == ABORT) {
        throw new AbortedException(abortReason);
      }
      if (next.data() == END) {
        break;
      }
      files.dataOut().write(next.data(), 0, next.length());
      verifier.update(next.data(), 0, next.length());
      writtenBytes += next.length() + layout.sumBytes(next.length());
    }
    verifier.finish();
  }
}
