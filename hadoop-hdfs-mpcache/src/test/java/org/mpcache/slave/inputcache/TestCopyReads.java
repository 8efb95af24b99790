package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.util.Arrays;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reads served from SSD copies: what they read from the SSD, and how a bad copy fails them. */
@Timeout(120)
class TestCopyReads {
  private static final int BLOCK = 1 << 20;

  @Test
  void aSmallPositionalReadReadsAFewKilobytesOfTheCopy() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("small-read")) {
      BlockKey key = fixture.replicas.add(1, BLOCK);
      fixture.fill(key);
      byte[] data = fixture.replicas.data(key);

      long before = fixture.faults.bytesRead();
      long offset = 512 * 100;
      assertArrayEquals(Arrays.copyOfRange(data, (int) offset, (int) offset + 4096),
          fixture.read(key, offset, 4096));
      long read = fixture.faults.bytesRead() - before;
      assertTrue(read <= 4096 + 64, "a 4 KB read read " + read + " bytes of the copy");

      before = fixture.faults.bytesRead();
      assertArrayEquals(data, fixture.read(key));
      read = fixture.faults.bytesRead() - before;
      assertTrue(read <= BLOCK + BLOCK / 100, "a whole read read " + read + " bytes");
      assertEquals(2, fixture.cache.counter(CacheCounter.HITS));
    }
  }

  @Test
  void aCopyThatRotsFailsTheReadPlainlyAndIsDroppedAndRevoked() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("rot")) {
      BlockKey key = fixture.replicas.add(2, BLOCK);
      fixture.fill(key);
      flipByte(fixture.copyFile(key), BLOCK / 2);

      IOException e = assertThrows(IOException.class, () -> fixture.read(key));
      assertTrue(e.getMessage().startsWith("mpCache:"), e.getMessage());
      assertEquals(1, fixture.cache.counter(CacheCounter.CORRUPT_DROPPED));
      assertTrue(fixture.revoked.contains(key));
      assertArrayEquals(fixture.replicas.data(key), fixture.read(key), "from the HDD now");
    }
  }

  @Test
  void onceTheChecksumsCannotBeReadNoMoreDataIsServed() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("meta-fails")) {
      BlockKey key = fixture.replicas.add(3, BLOCK);
      fixture.fill(key);
      ExtendedBlock block = fixture.replicas.block(key);
      File meta = new File(fixture.copyFile(key) + ".meta");

      // BlockSender's opens: checksums, then data; then the checksum file turns short.
      InputStream sums = fixture.cache.openMeta(block, ReadCaller.CLIENT_READ);
      InputStream data = fixture.cache.openData(block, 0, ReadCaller.CLIENT_READ);
      byte[] first = new byte[3000];
      // A window of six chunks is verified and held; 72 of its bytes are not served yet.
      assertEquals(first.length, data.read(first, 0, first.length));
      try (RandomAccessFile file = new RandomAccessFile(meta, "rw")) {
        file.setLength(100);
      }
      byte[] header = new byte[ChecksumLayout.HEADER_BYTES + 4];
      IOUtils.readFully(sums, header, 0, header.length);
      assertThrows(IOException.class, () -> IOUtils.readFully(sums, new byte[200], 0, 200),
          "BlockSender would send zeros for these checksums");
      IOException e = assertThrows(IOException.class, () -> data.read(new byte[10]));
      assertTrue(e.getMessage().startsWith("mpCache:"), e.getMessage());
      IOUtils.closeStreams(data, sums);
      assertEquals(1, fixture.cache.counter(CacheCounter.CORRUPT_DROPPED));
    }
  }

  @Test
  void aHitLeftPendingByAFailedReadIsNotServedForAnotherGeneration() throws Exception {
    try (CacheFixture fixture = CacheFixture.settings().open("stale-pending")) {
      BlockKey key = fixture.replicas.add(4, BLOCK);
      fixture.fill(key);
      // A BlockSender opens the checksums (a hit) and fails before it opens the data.
      fixture.cache.openMeta(fixture.replicas.block(key), ReadCaller.CLIENT_READ);

      fixture.cache.replicaChanging(key.blockPoolId(), key.blockId());
      byte[] appended = Arrays.copyOf(fixture.replicas.data(key), BLOCK + 512);
      fixture.replicas.change(key, appended);
      fixture.cache.replicaChanged(key.blockPoolId(), key.blockId());

      // The next open on the thread, for the new generation, without checksums.
      try (InputStream data = fixture.cache.openData(fixture.replicas.block(key), 0,
          ReadCaller.CLIENT_READ)) {
        assertArrayEquals(appended, data.readAllBytes());
      }
    }
  }

  private static void flipByte(File file, long offset) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
      raf.seek(offset);
      int b = raf.read();
      raf.seek(offset);
      raf.write(~b);
    }
  }
}
