package org.mpcache.slave.inputcache;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.CopyFiles;
import org.mpcache.slave.inputcache.store.SsdIoException;
import org.mpcache.slave.inputcache.store.SsdLane;
import org.mpcache.slave.inputcache.store.SsdStore;

/**
 * One read of an SSD copy. Its files are opened once, when the read starts, so nothing that
 * happens to the copy afterwards (eviction, a new generation) changes what this read sees. It
 * gives the two views a {@code BlockSender} asks for: {@link #metaView()}, the checksums it
 * sends, and {@link #dataView}, the data, each window of which is verified against the copy's
 * checksums before any of its bytes leave the DataNode. A window is at most
 * {@link #MAX_WINDOW_BYTES}, and no larger than the reader asks for until it reads on, so a
 * small positional read reads a few KB from the SSD, not the block.
 *
 * <p>Any failure drops the copy and fails the read with a plain message starting
 * {@code mpCache:} (the client retries and is served from the HDD replica); it is never an error
 * the DataNode would take for a bad HDD replica. Once the checksums could not be read, no more
 * data is served: {@code BlockSender} would have sent zeros in their place.
 */
final class CopyRead implements Closeable {
  /** The largest window of a copy read and verified at once. */
  static final int MAX_WINDOW_BYTES = 256 << 10;

  /** Where a read reports a copy that failed it. */
  @FunctionalInterface
  interface Failures {
    /** {@code ioError} null: the copy failed verification; else it could not be read. */
    void copyFailed(CachedCopy copy, String why, IOException ioError);
  }

  private final CachedCopy copy;
  private final CopyFiles files;
  private final SsdLane lane;
  private final ChecksumLayout layout;
  private final Failures failures;
  private final CacheCounter.Values counters;
  private volatile String failed;
  private boolean dataViewOpen;

  private CopyRead(CachedCopy copy, CopyFiles files, ChecksumLayout layout, Failures failures,
      CacheCounter.Values counters) {
    this.copy = copy;
    this.files = files;
    this.lane = copy.dir().lane();
    this.layout = layout;
    this.failures = failures;
    this.counters = counters;
  }

  /**
   * Opens a copy for reading: its files, and its checksum header, which must fit the copy's
   * lengths. A copy that cannot be opened is reported to {@code failures} and the exception
   * thrown.
   */
  static CopyRead open(CachedCopy copy, SsdStore store, Failures failures,
      CacheCounter.Values counters) throws IOException {
    CopyFiles files;
    try {
      files = store.openForReading(copy);
    } catch (IOException e) {
      failures.copyFailed(copy, "cannot be opened (" + e.getMessage() + ")", e);
      throw e;
    }
    try {
      byte[] header = new byte[ChecksumLayout.HEADER_BYTES];
      copy.dir().lane().track(() -> {
        files.meta().seek(0);
        files.meta().readFully(header);
        return null;
      });
      ChecksumLayout layout = ChecksumLayout.parse(header, copy.length());
      layout.checkMetaLength(copy.metaLength());
      return new CopyRead(copy, files, layout, failures, counters);
    } catch (IOException e) {
      files.close();
      failures.copyFailed(copy, "has an unusable checksum file (" + e.getMessage() + ")",
          e instanceof SsdIoException ? e : null);
      throw e;
    }
  }

  CachedCopy copy() {
    return copy;
  }

  /** The copy's checksum file, as {@code FsDatasetSpi#getMetaDataInputStream} returns it. */
  LengthInputStream metaView() {
    return new LengthInputStream(new MetaView(), copy.metaLength());
  }

  /** The copy's data from {@code offset}, a chunk boundary (BlockSender aligns it). */
  InputStream dataView(long offset) {
    if (offset % layout.bytesPerChecksum() != 0) {
      throw new IllegalArgumentException("offset " + offset + " is not a chunk boundary");
    }
    dataViewOpen = true;
    return new DataView(offset);
  }

  /**
   * Reads and verifies the whole copy without serving it (a short-circuit hand-out, the
   * scrubber), at most at the throttler's rate when one is given.
   */
  void verifyWhole(DataTransferThrottler throttler) throws IOException {
    int size = (int) Math.min(layout.wholeChunks(MAX_WINDOW_BYTES), Math.max(1, copy.length()));
    byte[] window = new byte[size];
    for (long offset = 0; offset < copy.length(); offset += size) {
      int n = (int) Math.min(size, copy.length() - offset);
      readVerified(offset, window, n);
      if (throttler != null) {
        throttler.throttle(n + layout.sumBytes(n));
      }
    }
    copy.markVerified(Time.monotonicNow());
  }

  /**
   * Opens the copy, reads and verifies it whole ({@link #verifyWhole}) and closes it; false when it
   * could not be opened or does not match its checksums (reported to {@code failures}).
   */
  static boolean verifiedWhole(CachedCopy copy, SsdStore store, Failures failures,
      CacheCounter.Values counters, DataTransferThrottler throttler) {
    try (CopyRead read = open(copy, store, failures, counters)) {
      read.verifyWhole(throttler);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  static boolean verifiedWhole(CachedCopy copy, SsdStore store, Failures failures,
      CacheCounter.Values counters) {
    return verifiedWhole(copy, store, failures, counters, null);
  }

  /** True once the data view was opened: it then owns the files and closes them. */
  boolean dataViewOpen() {
    return dataViewOpen;
  }

  @Override
  public void close() {
    files.close();
  }

  /** Reads {@code n} data bytes at {@code offset} into {@code window} and verifies them. */
  private void readVerified(long offset, byte[] window, int n) throws IOException {
    checkNotFailed();
    byte[] sums = new byte[layout.sumBytes(n)];
    try {
      lane.track(() -> {
        files.data().seek(offset);
        files.data().readFully(window, 0, n);
        files.meta().seek(layout.metaOffset(offset));
        files.meta().readFully(sums);
        return null;
      });
      layout.verify(window, 0, n, sums, 0, offset, copy.dataFile().toString());
    } catch (ChecksumException e) {
      throw fail("does not match its checksums (" + e.getMessage() + ")", null);
    } catch (SsdIoException e) {
      if (e.getCause() instanceof EOFException) {
        throw fail("is shorter than its recorded length " + copy.length(), null);
      }
      throw fail("cannot be read (" + e.getMessage() + ")", e);
    }
  }

  /** After a failure nothing more is served, not even a window verified before it. */
  private void checkNotFailed() throws IOException {
    if (failed != null) {
      throw new IOException("mpCache: the SSD copy " + copy + " " + failed
          + "; the block will be read from its HDD replica");
    }
  }

  private IOException fail(String problem, IOException cause) {
    failed = problem;
    failures.copyFailed(copy, "its data " + problem, cause);
    return new IOException("mpCache: the SSD copy " + copy + " " + problem
        + "; it was dropped and the block will be read from its HDD replica");
  }

  /** A stream whose single-byte read is its array read. */
  private abstract static class ArrayReads extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }
  }

  /** The checksum file as BlockSender reads it: header, skip to the first chunk, checksums. */
  private final class MetaView extends ArrayReads {
    private long position;

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
      long left = copy.metaLength() - position;
      if (len == 0) {
        return 0;
      }
      if (left <= 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      try {
        lane.track(() -> {
          files.meta().seek(position);
          files.meta().readFully(buffer, off, n);
          return null;
        });
      } catch (SsdIoException e) {
        throw fail("checksums cannot be read (" + e.getMessage() + ")", e);
      }
      position += n;
      return n;
    }

    @Override
    public long skip(long n) {
      long skipped = Math.max(0, Math.min(n, copy.metaLength() - position));
      position += skipped;
      return skipped;
    }
  }

  /** The data, each window verified before it is served. */
  private final class DataView extends ArrayReads {
    private final boolean fromStart;
    private byte[] window = new byte[0];
    private long windowOffset;
    private int windowLength;
    private int position;

    DataView(long offset) {
      this.fromStart = offset == 0;
      this.windowOffset = offset;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      checkNotFailed();
      if (position == windowLength && !load(len)) {
        return -1;
      }
      int n = Math.min(len, windowLength - position);
      System.arraycopy(window, position, buffer, off, n);
      position += n;
      counters.add(CacheCounter.BYTES_FROM_SSD, n);
      return n;
    }

    /**
     * The next window: what the reader asks for, in whole chunks, at least twice the last one
     * while it reads on, at most {@link #MAX_WINDOW_BYTES}; false at the end of the copy.
     */
    private boolean load(int wanted) throws IOException {
      windowOffset += windowLength;
      position = 0;
      long remaining = copy.length() - windowOffset;
      if (remaining <= 0) {
        windowLength = 0;
        if (fromStart) {
          copy.markVerified(Time.monotonicNow());
        }
        return false;
      }
      int chunk = layout.bytesPerChecksum();
      int asked = (int) Math.min(MAX_WINDOW_BYTES, ((long) wanted + chunk - 1) / chunk * chunk);
      int size = Math.min(layout.wholeChunks(MAX_WINDOW_BYTES),
          Math.max(asked, 2 * windowLength));
      int n = (int) Math.min(size, remaining);
      if (window.length < n) {
        window = new byte[n];
      }
      windowLength = 0;
      readVerified(windowOffset, window, n);
      windowLength = n;
      return true;
    }

    @Override
    public void close() {
      CopyRead.this.close();
    }
  }
}
