package org.mpcache.slave;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;

import org.apache.hadoop.fs.ChecksumException;
import org.mpcache.slave.store.CachedCopy;

/**
 * An SSD copy's data, verified window by window against the block's checksums before any byte
 * leaves the DataNode. A mismatch, short read or I/O error drops the copy and fails the read with
 * a plain message (the client retries and is served from the HDD replica); it is never reported
 * in a form the DataNode would take for a bad HDD replica.
 */
final class VerifiedCopyStream extends InputStream {
  private static final int WINDOW_BYTES = 1 << 20;

  private final CachedCopy copy;
  private final BlockChecksums checksums;
  private final InputCache cache;
  private final RandomAccessFile data;
  private final boolean fromStart;
  private final byte[] window;
  private long windowOffset;
  private int windowLength;
  private int position;

  /** Opens the copy at {@code offset}, which must be a chunk boundary (BlockSender aligns it). */
  VerifiedCopyStream(CachedCopy copy, BlockChecksums checksums, long offset, InputCache cache)
      throws IOException {
    if (offset % checksums.bytesPerChecksum() != 0) {
      throw new IllegalArgumentException("offset " + offset + " is not a chunk boundary");
    }
    this.copy = copy;
    this.checksums = checksums;
    this.cache = cache;
    this.fromStart = offset == 0;
    this.window = new byte[windowSize(checksums.bytesPerChecksum())];
    this.windowOffset = offset;
    this.data = cache.openCopyData(copy);
  }

  /** A buffer size that is a whole number of chunks. */
  static int windowSize(int bytesPerChecksum) {
    return Math.max(1, WINDOW_BYTES / bytesPerChecksum) * bytesPerChecksum;
  }

  @Override
  public int read() throws IOException {
    if (!ensureData()) {
      return -1;
    }
    cache.addServed(CacheCounter.BYTES_FROM_SSD, 1);
    return window[position++] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!ensureData()) {
      return -1;
    }
    int n = Math.min(len, windowLength - position);
    System.arraycopy(window, position, buffer, off, n);
    position += n;
    cache.addServed(CacheCounter.BYTES_FROM_SSD, n);
    return n;
  }

  /** Reads and verifies the rest of the copy without serving it. */
  void verifyToEnd() throws IOException {
    while (ensureData()) {
      position = windowLength;
    }
  }

  /** Loads and verifies the next window when the current one is used up; false at the end. */
  private boolean ensureData() throws IOException {
    if (position < windowLength) {
      return true;
    }
    windowOffset += windowLength;
    position = 0;
    windowLength = 0;
    long remaining = copy.length() - windowOffset;
    if (remaining <= 0) {
      if (fromStart) {
        copy.markVerified();
      }
      return false;
    }
    int n = (int) Math.min(window.length, remaining);
    boolean shortRead = false;
    try {
      data.seek(windowOffset);
      for (int read = 0; read < n && !shortRead; ) {
        int got = data.read(window, read, n - read);
        shortRead = got < 0;
        read += Math.max(got, 0);
      }
      if (!shortRead) {
        checksums.verify(window, 0, n, windowOffset, copy.dataFile().toString());
      }
    } catch (ChecksumException e) {
      throw fail("does not match its checksums (" + e.getMessage() + ")", null);
    } catch (IOException e) {
      throw fail("cannot be read (" + e + ")", e);
    }
    if (shortRead) {
      throw fail("is shorter than its recorded length " + copy.length(), null);
    }
    windowLength = n;
    return true;
  }

  private IOException fail(String problem, IOException cause) {
    cache.dropBroken(copy, "its data " + problem, cause);
    return new IOException("mpCache: the SSD copy " + copy + " " + problem
        + "; it was dropped and the block will be read from its HDD replica");
  }

  @Override
  public void close() throws IOException {
    data.close();
  }
}
