package org.mpcache.slave;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.io.IOUtils;
import org.mpcache.slave.store.CacheDir;

/**
 * One block being copied to the SSD from bytes read off its HDD replica. Each window of data is
 * checked against the replica's checksums before it is written, so a completed fill is a verified
 * copy; the checksum file is written last, then the cache commits both files.
 */
final class Fill {
  private final BlockKey key;
  private final LiveReplica replica;
  private final BlockChecksums checksums;
  private final CacheDir dir;
  private final long reservedBytes;
  private final Path tmpData;
  private final Path tmpMeta;
  private final InputCache cache;
  private final byte[] window;
  private OutputStream out;
  private int buffered;
  private long written;
  private boolean done;

  Fill(BlockKey key, LiveReplica replica, BlockChecksums checksums, CacheDir dir,
      long reservedBytes, Path[] tmpFiles, InputCache cache) throws IOException {
    this.key = key;
    this.replica = replica;
    this.checksums = checksums;
    this.dir = dir;
    this.reservedBytes = reservedBytes;
    this.tmpData = tmpFiles[0];
    this.tmpMeta = tmpFiles[1];
    this.cache = cache;
    this.window = new byte[VerifiedCopyStream.windowSize(checksums.bytesPerChecksum())];
    this.out = new FileOutputStream(tmpData.toFile());
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
    return written + buffered == replica.length();
  }

  /**
   * Takes the next bytes of the block, in order.
   *
   * @throws ChecksumException when the HDD bytes do not match their checksums (not cached)
   * @throws IOException when the SSD fails
   */
  void accept(byte[] data, int off, int len) throws IOException {
    if (written + buffered + len > replica.length()) {
      throw new IOException("more bytes than the replica's " + replica.length());
    }
    while (len > 0) {
      int n = Math.min(len, window.length - buffered);
      System.arraycopy(data, off, window, buffered, n);
      buffered += n;
      off += n;
      len -= n;
      if (buffered == window.length) {
        flushWindow();
      }
    }
  }

  private void flushWindow() throws IOException {
    checksums.verify(window, 0, buffered, written, tmpData.toString());
    out.write(window, 0, buffered);
    written += buffered;
    buffered = 0;
  }

  /** Writes the rest and the checksum file, and hands the copy to the cache to commit. */
  void finish() throws IOException {
    if (!complete()) {
      throw new IOException("only " + (written + buffered) + " of " + replica.length()
          + " bytes were read");
    }
    flushWindow();
    out.close();
    out = null;
    Files.write(tmpMeta, checksums.bytes());
    done = true;
    cache.commit(this);
  }

  /** Gives the fill up (no-op once finished or abandoned). */
  void abort(String why) {
    abort(why, null);
  }

  /** Gives the fill up after an SSD error, which the cache checks its dir for. */
  void abortOnSsdError(IOException error) {
    abort("SSD error: " + error, error);
  }

  private void abort(String why, IOException ssdError) {
    if (done) {
      return;
    }
    done = true;
    IOUtils.closeStream(out);
    cache.abandon(this, why, ssdError);
  }
}
