package org.mpcache.slave;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.apache.hadoop.fs.ChecksumException;
import org.mpcache.slave.store.CacheDir;

/**
 * One block being copied to the SSD from bytes read off its HDD replica. The producer (the
 * reader's thread, or a background fill) checks each window of data against the replica's
 * checksums and queues it; a writer thread writes the windows, then the checksum file, and has
 * the cache commit the copy. A completed fill is therefore a verified copy, and the reader never
 * waits for the SSD: when the writer falls more than {@link #MAX_QUEUED_WINDOWS} windows behind,
 * a reader's fill is given up and the block is copied in the background instead.
 */
final class Fill implements Runnable {
  /** Windows (of ~256 KB) a fill may hold in memory while the SSD catches up: about 8 MB. */
  static final int MAX_QUEUED_WINDOWS = 32;
  private static final byte[] END = new byte[0];
  private static final byte[] ABORT = new byte[0];

  /** The writer fell behind a reader that must not wait. */
  static final class WriterBehindException extends IOException {
    WriterBehindException() {
      super("the SSD writes fell more than " + MAX_QUEUED_WINDOWS + " windows behind the reader");
    }
  }

  private final BlockKey key;
  private final LiveReplica replica;
  private final BlockChecksums checksums;
  private final CacheDir dir;
  private final long reservedBytes;
  private final Path tmpData;
  private final Path tmpMeta;
  private final InputCache cache;
  private final BlockingQueue<Window> queue = new ArrayBlockingQueue<>(MAX_QUEUED_WINDOWS + 1);
  /** Producer side: the window being filled, and how much of the block has been handed over. */
  private byte[] window;
  private int buffered;
  private long handedOver;
  private boolean ended;
  private volatile String abortReason;
  private volatile boolean retryInBackground;

  private record Window(byte[] data, int length) {
  }

  Fill(BlockKey key, LiveReplica replica, BlockChecksums checksums, CacheDir dir,
      long reservedBytes, Path[] tmpFiles, InputCache cache) {
    this.key = key;
    this.replica = replica;
    this.checksums = checksums;
    this.dir = dir;
    this.reservedBytes = reservedBytes;
    this.tmpData = tmpFiles[0];
    this.tmpMeta = tmpFiles[1];
    this.cache = cache;
    this.window = new byte[VerifiedCopyStream.windowSize(checksums.bytesPerChecksum())];
  }

  BlockKey key() {
    return key;
  }

  LiveReplica replica() {
    return replica;
  }

  CacheDir dir() {
    return dir;
  }

  long reservedBytes() {
    return reservedBytes;
  }

  Path tmpData() {
    return tmpData;
  }

  Path tmpMeta() {
    return tmpMeta;
  }

  /** True once every byte of the block has been accepted. */
  boolean complete() {
    return handedOver + buffered == replica.length();
  }

  /**
   * Takes the next bytes of the block, in order.
   *
   * @param mayWait whether the producer may wait for the writer (a background fill) or not (a
   *     reader, whose fill then fails with {@link WriterBehindException})
   * @throws ChecksumException when the HDD bytes do not match their checksums (not cached)
   */
  void accept(byte[] data, int off, int len, boolean mayWait) throws IOException {
    if (handedOver + buffered + len > replica.length()) {
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

  /** Hands over the rest; the writer then completes the copy and has the cache commit it. */
  void finish(boolean mayWait) throws IOException {
    if (!complete()) {
      throw new IOException("only " + (handedOver + buffered) + " of " + replica.length()
          + " bytes were read");
    }
    if (buffered > 0) {
      handOver(mayWait);
    }
    enqueue(new Window(END, 0), mayWait);
    ended = true;
  }

  private void handOver(boolean mayWait) throws IOException {
    checksums.verify(window, 0, buffered, handedOver, tmpData.toString());
    enqueue(new Window(window, buffered), mayWait);
    handedOver += buffered;
    window = new byte[window.length];
    buffered = 0;
  }

  private void enqueue(Window next, boolean mayWait) throws IOException {
    if (abortReason != null) {
      throw new IOException("fill already given up: " + abortReason);
    }
    if (!mayWait) {
      if (!queue.offer(next)) {
        throw new WriterBehindException();
      }
      return;
    }
    try {
      queue.put(next);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the SSD writer");
    }
  }

  /**
   * Gives the fill up (no-op once finished); the writer deletes what it wrote.
   *
   * @param inBackground copy the block in the background instead, once this fill is cleared up
   */
  void abort(String why, boolean inBackground) {
    if (ended || abortReason != null) {
      return;
    }
    retryInBackground = inBackground;
    abortReason = why;
    queue.clear();
    queue.offer(new Window(ABORT, 0));
  }

  /** The writer: drains the windows to the SSD, then commits or abandons the copy. */
  @Override
  public void run() {
    try (OutputStream out = cache.createCopyFile(tmpData)) {
      while (true) {
        Window next = queue.take();
        if (next.data() == ABORT) {
          cache.abandon(this, abortReason, null, retryInBackground);
          return;
        }
        if (next.data() == END) {
          break;
        }
        out.write(next.data(), 0, next.length());
      }
    } catch (IOException e) {
      abortReason = "SSD write failed: " + e;
      cache.abandon(this, abortReason, e, false);
      return;
    } catch (InterruptedException e) {
      abortReason = "interrupted";
      cache.abandon(this, abortReason, null, false);
      return;
    }
    try {
      try (OutputStream meta = cache.createCopyFile(tmpMeta)) {
        meta.write(checksums.bytes());
      }
    } catch (IOException e) {
      cache.abandon(this, "SSD write failed: " + e, e, false);
      return;
    }
    cache.commit(this);
  }
}
