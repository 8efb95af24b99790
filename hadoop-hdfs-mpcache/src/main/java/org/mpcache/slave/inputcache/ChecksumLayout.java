package org.mpcache.slave.inputcache;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.DataChecksum;

/**
 * A block's checksum (meta) file as its header describes it: the algorithm, and where the
 * checksum of each chunk of data lies. Nothing but the header is held; checksums are read as
 * needed, so a read of a few KB costs a few bytes of checksums, not the whole file.
 */
public final class ChecksumLayout {
  /** Bytes of a meta file's header. */
  public static final int HEADER_BYTES = BlockMetadataHeader.getHeaderSize();

  private final byte[] header;
  private final DataChecksum checksum;
  private final long blockLength;

  private ChecksumLayout(byte[] header, DataChecksum checksum, long blockLength) {
    this.header = header;
    this.checksum = checksum;
    this.blockLength = blockLength;
  }

  /**
   * Reads the header at the start of {@code meta} for a block of {@code blockLength} bytes.
   *
   * @throws IOException with a plain message when the header is unreadable (never a
   *     {@code CorruptMetaHeaderException}: the DataNode would take that for a corrupt HDD
   *     replica)
   */
  public static ChecksumLayout read(InputStream meta, long blockLength) throws IOException {
    byte[] header = new byte[HEADER_BYTES];
    try {
      IOUtils.readFully(meta, header, 0, header.length);
    } catch (IOException e) {
      throw new IOException("checksum header cannot be read (" + e.getMessage() + ")", e);
    }
    return parse(header, blockLength);
  }

  /** As {@link #read}, from the header's bytes. */
  public static ChecksumLayout parse(byte[] header, long blockLength) throws IOException {
    if (header.length != HEADER_BYTES) {
      throw new IOException("checksum header has " + header.length + " bytes, expected "
          + HEADER_BYTES);
    }
    DataChecksum checksum;
    try {
      checksum = BlockMetadataHeader.readHeader(
          new DataInputStream(new ByteArrayInputStream(header))).getChecksum();
    } catch (IOException | RuntimeException e) {
      throw new IOException("unreadable checksum header (" + e.getMessage() + ")");
    }
    if (checksum.getChecksumType() == DataChecksum.Type.NULL) {
      throw new IOException("the checksum type is NULL (" + HdfsClientConfigKeys
          .DFS_CHECKSUM_TYPE_KEY + "): nothing would verify a copy's bytes");
    }
    if (checksum.getBytesPerChecksum() <= 0) {
      throw new IOException("checksum header has " + checksum.getBytesPerChecksum()
          + " bytes per checksum");
    }
    return new ChecksumLayout(header.clone(), checksum, blockLength);
  }

  /** The header's bytes, as the meta file starts. */
  public byte[] header() {
    return header.clone();
  }

  public int bytesPerChecksum() {
    return checksum.getBytesPerChecksum();
  }

  public long blockLength() {
    return blockLength;
  }

  /** The length a meta file with this header must have: header and one checksum per chunk. */
  public long metaLength() {
    return HEADER_BYTES + chunks(blockLength) * checksum.getChecksumSize();
  }

  /** Fails plainly unless a meta file of {@code actualLength} bytes fits the block. */
  public void checkMetaLength(long actualLength) throws IOException {
    if (actualLength != metaLength()) {
      throw new IOException("checksum file has " + actualLength + " bytes, expected "
          + metaLength() + " for " + blockLength + " data bytes");
    }
  }

  /** Where in the meta file the checksum of the chunk starting at {@code blockOffset} lies. */
  public long metaOffset(long blockOffset) {
    return HEADER_BYTES + blockOffset / bytesPerChecksum() * checksum.getChecksumSize();
  }

  /** Checksum bytes covering {@code dataLength} bytes that start on a chunk boundary. */
  public int sumBytes(int dataLength) {
    return (int) chunks(dataLength) * checksum.getChecksumSize();
  }

  /** The largest whole number of chunks that fits {@code maxBytes} (at least one chunk). */
  public int wholeChunks(int maxBytes) {
    return Math.max(1, maxBytes / bytesPerChecksum()) * bytesPerChecksum();
  }

  /**
   * Verifies {@code len} data bytes that start at block offset {@code blockOffset}, a chunk
   * boundary, against their checksums at {@code sums[sumsOff]}; only the block's last chunk may
   * be partial.
   */
  public void verify(byte[] data, int off, int len, byte[] sums, int sumsOff, long blockOffset,
      String source) throws ChecksumException {
    checksum.verifyChunkedSums(ByteBuffer.wrap(data, off, len),
        ByteBuffer.wrap(sums, sumsOff, sumBytes(len)), source, blockOffset);
  }

  private long chunks(long bytes) {
    return (bytes + bytesPerChecksum() - 1) / bytesPerChecksum();
  }
}
