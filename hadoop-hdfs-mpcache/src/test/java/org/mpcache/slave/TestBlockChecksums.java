package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;

import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.Test;

class TestBlockChecksums {
  private static final int BYTES_PER_CHECKSUM = 512;

  /** Data and the meta file HDFS would write for it. */
  private static byte[] metaFor(byte[] data) throws IOException {
    DataChecksum checksum =
        DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, BYTES_PER_CHECKSUM);
    int chunks = (data.length + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM;
    ByteBuffer sums = ByteBuffer.allocate(chunks * checksum.getChecksumSize());
    checksum.calculateChunkedSums(ByteBuffer.wrap(data), sums);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlockMetadataHeader.writeHeader(new DataOutputStream(out), checksum);
    out.write(sums.array());
    return out.toByteArray();
  }

  private static byte[] data(int length) {
    byte[] data = new byte[length];
    new Random(length).nextBytes(data);
    return data;
  }

  @Test
  void verifiesWindowsAndThePartialLastChunk() throws Exception {
    byte[] data = data(3 * BYTES_PER_CHECKSUM + 100);
    BlockChecksums checksums = BlockChecksums.parse(metaFor(data), data.length);
    checksums.verify(data, 0, data.length, 0, "x");
    checksums.verify(data, BYTES_PER_CHECKSUM, data.length - BYTES_PER_CHECKSUM,
        BYTES_PER_CHECKSUM, "x");
    assertEquals(BYTES_PER_CHECKSUM, checksums.bytesPerChecksum());
    assertEquals(metaFor(data).length, checksums.newStream().getLength());
  }

  @Test
  void aFlippedByteFailsVerification() throws Exception {
    byte[] data = data(2 * BYTES_PER_CHECKSUM);
    BlockChecksums checksums = BlockChecksums.parse(metaFor(data), data.length);
    data[BYTES_PER_CHECKSUM + 3] ^= 1;
    ChecksumException e = assertThrows(ChecksumException.class,
        () -> checksums.verify(data, 0, data.length, 0, "copy"));
    assertEquals(BYTES_PER_CHECKSUM, e.getPos());
  }

  @Test
  void aChecksumFileOfTheWrongSizeIsRejected() throws Exception {
    byte[] data = data(4 * BYTES_PER_CHECKSUM);
    byte[] meta = metaFor(data);
    IOException e = assertThrows(IOException.class,
        () -> BlockChecksums.parse(java.util.Arrays.copyOf(meta, meta.length - 4), data.length));
    assertTrue(e.getMessage().contains("expected"), e.getMessage());
  }

  @Test
  void anUnreadableHeaderIsAPlainIoException() {
    IOException e = assertThrows(IOException.class,
        () -> BlockChecksums.parse(new byte[] {0, 1, 2}, 0));
    // A CorruptMetaHeaderException would make the DataNode report its HDD replica as bad.
    assertEquals(IOException.class, e.getClass());
  }
}
