package org.mpcache.slave;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.util.DataChecksum;

/**
 * A replica's checksum (meta) file held in memory: the header and one checksum per chunk. It is
 * small (under 1 % of the block), so the cache reads it whole and hands the DataNode an in-memory
 * stream that cannot fail half-way: a failing checksum stream would make the DataNode send zeroed
 * checksums, and the client would then report the HDD replica as corrupt.
 */
public final class BlockChecksums {
  private final byte[] meta;
  private final DataChecksum checksum;
  private final long blockLength;

  private BlockChecksums(byte[] meta, DataChecksum checksum, long blockLength) {
    this.meta = meta;
    this.checksum = checksum;
    this.blockLength = blockLength;
  }

  /**
   * Parses a meta file's bytes for a block of {@code blockLength} bytes.
   *
   * @throws IOException with a plain message when the header is unreadable or the file does not
   *     hold exactly one checksum per chunk (never a {@code CorruptMetaHeaderException}: the
   *     DataNode would take that as a corrupt HDD replica)
   */
  public static BlockChecksums parse(byte[] meta, long blockLength) throws IOException {
    DataChecksum checksum;
    try {
      checksum = BlockMetadataHeader.readHeader(
          new DataInputStream(new ByteArrayInputStream(meta))).getChecksum();
    } catch (IOException | RuntimeException e) {
      throw new IOException("unreadable checksum header (" + e.getMessage() + ")");
    }
    if (checksum.getBytesPerChecksum() <= 0) {
      throw new IOException("checksum header has " + checksum.getBytesPerChecksum()
          + " bytes per checksum");
    }
    long expected = BlockMetadataHeader.getHeaderSize()
        + chunks(blockLength, checksum.getBytesPerChecksum()) * checksum.getChecksumSize();
    if (meta.length != expected) {
      throw new IOException("checksum file has " + meta.length + " bytes, expected " + expected
          + " for " + blockLength + " data bytes");
    }
    return new BlockChecksums(meta, checksum, blockLength);
  }

  public int bytesPerChecksum() {
    return checksum.getBytesPerChecksum();
  }

  public long blockLength() {
    return blockLength;
  }

  public byte[] bytes() {
    return meta;
  }

  /** A fresh stream over the whole meta file, as {@code FsDatasetSpi#getMetaDataInputStream} returns. */
  public LengthInputStream newStream() {
    return new LengthInputStream(new ByteArrayInputStream(meta), meta.length);
  }

  /**
   * Verifies {@code len} data bytes that start at block offset {@code blockOffset}, a chunk
   * boundary; only the block's last chunk may be partial.
   */
  public void verify(byte[] data, int off, int len, long blockOffset, String source)
      throws ChecksumException {
    int bytesPerChecksum = checksum.getBytesPerChecksum();
    int checksumSize = checksum.getChecksumSize();
    int first = BlockMetadataHeader.getHeaderSize()
        + (int) (blockOffset / bytesPerChecksum) * checksumSize;
    int count = (int) chunks(len, bytesPerChecksum) * checksumSize;
    checksum.verifyChunkedSums(ByteBuffer.wrap(data, off, len),
        ByteBuffer.wrap(meta, first, count), source, blockOffset);
  }

  private static long chunks(long bytes, int bytesPerChecksum) {
    return (bytes + bytesPerChecksum - 1) / bytesPerChecksum;
  }
}
