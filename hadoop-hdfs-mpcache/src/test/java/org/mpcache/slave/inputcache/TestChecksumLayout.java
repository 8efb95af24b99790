package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.Test;

class TestChecksumLayout {
  private static byte[] data(int length) {
    byte[] data = new byte[length];
    new Random(length).nextBytes(data);
    return data;
  }

  @Test
  void theLayoutPlacesEachChunksChecksum() throws IOException {
    byte[] data = data(5000);
    byte[] meta = FakeReplicas.metaFor(data);
    ChecksumLayout layout = ChecksumLayout.read(new ByteArrayInputStream(meta), data.length);

    assertEquals(512, layout.bytesPerChecksum());
    assertEquals(meta.length, layout.metaLength());
    layout.checkMetaLength(meta.length);
    assertEquals(ChecksumLayout.HEADER_BYTES + 3 * 4, layout.metaOffset(3 * 512));
    assertEquals(2 * 4, layout.sumBytes(513));
    assertEquals(1024, layout.wholeChunks(1500));
    assertEquals(512, layout.wholeChunks(10), "at least one chunk");
    layout.verify(data, 1024, 1024, meta, (int) layout.metaOffset(1024), 1024, "test");
  }

  @Test
  void aBadHeaderOrLengthFailsPlainly() throws IOException {
    byte[] meta = FakeReplicas.metaFor(data(5000));
    IOException header = assertThrows(IOException.class,
        () -> ChecksumLayout.parse(new byte[] {0, 1, 9, 0, 0, 2, 0}, 5000)); // type 9: none
    assertTrue(header.getMessage().contains("checksum header"), header.getMessage());
    assertEquals(IOException.class, header.getClass(), "never a corrupt-meta exception");
    IOException unverifiable = assertThrows(IOException.class,
        () -> ChecksumLayout.parse(new byte[] {0, 1, 0, 0, 0, 2, 0}, 5000)); // type 0: NULL
    assertTrue(unverifiable.getMessage().contains("checksum type is NULL"),
        unverifiable.getMessage());
    ChecksumLayout layout = ChecksumLayout.read(new ByteArrayInputStream(meta), 5000);
    IOException length = assertThrows(IOException.class,
        () -> layout.checkMetaLength(meta.length - 4));
    assertTrue(length.getMessage().contains("expected " + meta.length), length.getMessage());
  }

  @Test
  void theVerifierTakesPiecesOfAnySizeAndCopiesTheChecksumsItUsed() throws IOException {
    byte[] data = data(10_000);
    byte[] meta = FakeReplicas.metaFor(data);
    ByteArrayInputStream in = new ByteArrayInputStream(meta);
    ChecksumLayout layout = ChecksumLayout.read(in, data.length);
    ByteArrayOutputStream copied = new ByteArrayOutputStream();
    ChunkVerifier verifier = new ChunkVerifier(layout, in, copied, "test");

    int[] pieces = {1, 700, 511, 4000, 513, 4275};
    int off = 0;
    for (int piece : pieces) {
      verifier.update(data, off, piece);
      off += piece;
    }
    verifier.finish();
    assertEquals(data.length, verifier.verifiedBytes());
    assertTrue(Arrays.equals(meta, ChecksumLayout.HEADER_BYTES, meta.length,
        copied.toByteArray(), 0, copied.size()));
  }

  @Test
  void theVerifierFindsABadByteAndAShortBlock() throws IOException {
    byte[] data = data(3000);
    byte[] meta = FakeReplicas.metaFor(data);
    byte[] bad = data.clone();
    bad[2000] ^= 1;
    ByteArrayInputStream in = new ByteArrayInputStream(meta);
    ChunkVerifier verifier = new ChunkVerifier(
        ChecksumLayout.read(in, data.length), in, new ByteArrayOutputStream(), "test");
    assertThrows(ChecksumException.class, () -> verifier.update(bad, 0, bad.length));

    ByteArrayInputStream again = new ByteArrayInputStream(meta);
    ChunkVerifier shortBlock = new ChunkVerifier(
        ChecksumLayout.read(again, data.length), again, new ByteArrayOutputStream(), "test");
    shortBlock.update(data, 0, 2048);
    assertThrows(IOException.class, shortBlock::finish);
  }
}
