package org.mpcache.slave.inputcache;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import org.apache.hadoop.io.IOUtils;

/**
 * Verifies a block's bytes as they stream past, in pieces of any size, against the checksums it
 * reads in step from the block's meta file (positioned after its header), and copies those
 * checksums on: a fill's copy gets exactly the checksums its bytes were verified against. Holds
 * at most one chunk of data and the checksums of one piece.
 */
final class ChunkVerifier {
  private final ChecksumLayout layout;
  private final InputStream sums;
  private final OutputStream sumsCopy;
  private final String source;
  private final byte[] partial;
  private int partialLength;
  private long verified;
  private byte[] sumBuffer = new byte[0];

  ChunkVerifier(ChecksumLayout layout, InputStream sums, OutputStream sumsCopy, String source) {
    this.layout = layout;
    this.sums = sums;
    this.sumsCopy = sumsCopy;
    this.source = source;
    this.partial = new byte[layout.bytesPerChecksum()];
  }

  /** The next {@code len} bytes of the block. */
  void update(byte[] data, int off, int len) throws IOException {
    if (partialLength > 0) {
      int n = Math.min(len, partial.length - partialLength);
      System.arraycopy(data, off, partial, partialLength, n);
      partialLength += n;
      off += n;
      len -= n;
      if (partialLength < partial.length) {
        return;
      }
      check(partial, 0, partialLength);
      partialLength = 0;
    }
    int whole = len / partial.length * partial.length;
    if (whole > 0) {
      check(data, off, whole);
    }
    System.arraycopy(data, off + whole, partial, 0, len - whole);
    partialLength = len - whole;
  }

  /** The block ended: its last chunk is verified, and it must have had exactly its length. */
  void finish() throws IOException {
    if (partialLength > 0) {
      check(partial, 0, partialLength);
      partialLength = 0;
    }
    if (verified != layout.blockLength()) {
      throw new IOException("only " + verified + " of " + layout.blockLength()
          + " bytes were verified");
    }
  }

  long verifiedBytes() {
    return verified;
  }

  private void check(byte[] data, int off, int len) throws IOException {
    if (verified + len > layout.blockLength()) {
      throw new IOException("more bytes than the block's " + layout.blockLength());
    }
    int n = layout.sumBytes(len);
    if (sumBuffer.length < n) {
      sumBuffer = new byte[n];
    }
    IOUtils.readFully(sums, sumBuffer, 0, n);
    layout.verify(data, off, len, sumBuffer, 0, verified, source);
    sumsCopy.write(sumBuffer, 0, n);
    verified += len;
  }
}
