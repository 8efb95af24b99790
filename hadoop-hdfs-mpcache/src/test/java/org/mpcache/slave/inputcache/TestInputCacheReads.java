package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reads on a running cluster: hits, fills, short-circuit, corruption, replica changes. */
@Timeout(180)
class TestInputCacheReads {
  private static CacheTestCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY,
        UserGroupInformation.getCurrentUser().getShortUserName());
    cluster = CacheTestCluster.start("reads", conf, 3, null);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void secondReadIsServedFromTheSsdCopy() throws Exception {
    Path file = new Path("/second-read");
    byte[] data = cluster.write(file, 3 * BLOCK_SIZE + 1000, 1);
    long hits = cluster.total(CacheCounter.HITS);
    long fromSsd = cluster.total(CacheCounter.BYTES_FROM_SSD);

    assertArrayEquals(data, cluster.read(file));
    cluster.waitCached(file);
    cluster.garbleHddReplicas(file);

    assertArrayEquals(data, cluster.read(file), "second read must come from the SSD copies");
    assertEquals(hits + 4, cluster.total(CacheCounter.HITS));
    assertEquals(fromSsd + data.length, cluster.total(CacheCounter.BYTES_FROM_SSD));
  }

  @Test
  void readsStartingInsideABlockAreServedFromTheCopy() throws Exception {
    Path file = new Path("/positional");
    byte[] data = cluster.writeCached(file, 2 * BLOCK_SIZE, 2);
    cluster.garbleHddReplicas(file);

    byte[] part = new byte[5000];
    try (FSDataInputStream in = cluster.fs().open(file)) {
      in.readFully(BLOCK_SIZE + 777, part);
    }
    assertArrayEquals(Arrays.copyOfRange(data, BLOCK_SIZE + 777, BLOCK_SIZE + 777 + 5000), part);
  }

  /**
   * A reader from the start of a block that stops early (TeraSort's client samples each split's
   * first records) was admitted, so the rest of the copy is read in the background; a reader
   * that starts inside a block starts no copy.
   */
  @Test
  void aReaderThatStopsEarlyLeavesTheCopyToTheBackgroundOneStartingInsideCopiesNothing()
      throws Exception {
    Path file = new Path("/partial");
    byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 3);
    try (FSDataInputStream in = cluster.fs().open(file)) {
      in.readFully(0, new byte[1000]); // a positional read asks the DataNode for 1000 bytes only
      in.readFully(BLOCK_SIZE + 4096, new byte[1000]);
    }
    List<LocatedBlock> blocks = cluster.blocks(file);
    GenericTestUtils.waitFor(() -> cluster.isCached(blocks.get(0)), 50, 30_000,
        "the first block copied in the background");
    assertArrayEquals(Arrays.copyOf(data, BLOCK_SIZE),
        Files.readAllBytes(cluster.copyDataFile(blocks.get(0)).toPath()));
    cluster.waitFillsEnded();
    assertFalse(cluster.isCached(blocks.get(1)));
  }

  /**
   * A block written without checksums (dfs.checksum.type NULL) has nothing to verify a copy by:
   * it is never copied, and the arbiter is never asked (an admission could evict others).
   */
  @Test
  void aBlockWithoutChecksumsIsNeverCopied() throws Exception {
    Path file = new Path("/no-checksums");
    Configuration conf = new Configuration(cluster.fs().getConf());
    conf.set(HdfsClientConfigKeys.DFS_CHECKSUM_TYPE_KEY, "NULL");
    byte[] data = new byte[BLOCK_SIZE];
    new Random(21).nextBytes(data);
    try (FileSystem writer = FileSystem.newInstance(cluster.fs().getUri(), conf);
        FSDataOutputStream out = writer.create(file, (short) 1)) {
      out.write(data);
    }
    int holder = cluster.holderIndex(cluster.blocks(file).get(0));
    long aborted = cluster.counter(holder, CacheCounter.FILLS_ABORTED);
    assertArrayEquals(data, cluster.read(file));
    cluster.waitFillsEnded();
    assertArrayEquals(data, cluster.read(file));
    cluster.waitFillsEnded();
    assertFalse(cluster.isCached(cluster.blocks(file).get(0)));
    assertEquals(aborted + 2, cluster.counter(holder, CacheCounter.FILLS_ABORTED),
        "each read's fill given up at the checksum header");
    assertEquals(0, cluster.counter(holder, CacheCounter.FILLS_NOT_ADMITTED), "never asked");
  }

  @Test
  void legacyShortCircuitReadersGetTheSsdCopy() throws Exception {
    Path file = new Path("/legacy-scr");
    byte[] data = cluster.writeCached(file, 2 * BLOCK_SIZE + 10, 4);
    cluster.garbleHddReplicas(file);

    Configuration conf = new Configuration(cluster.fs().getConf());
    conf.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, "legacy-short-circuit");
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY, true);
    conf.setBoolean(HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL, true);
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.SKIP_CHECKSUM_KEY, false);
    try (FileSystem scr = FileSystem.newInstance(cluster.fs().getUri(), conf);
        HdfsDataInputStream in = (HdfsDataInputStream) scr.open(file)) {
      byte[] read = new byte[data.length];
      in.readFully(0, read);
      assertArrayEquals(data, read);
      assertEquals(data.length, in.getReadStatistics().getTotalShortCircuitBytesRead());
    }
  }

  @Test
  void aCorruptCopyIsDroppedAndTheReadServedFromHdd() throws Exception {
    Path file = new Path("/corrupt-data");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 5);
    LocatedBlock block = cluster.blocks(file).get(0);
    CacheTestCluster.overwrite(cluster.copyDataFile(block), BLOCK_SIZE / 2, 100);
    long dropped = cluster.total(CacheCounter.CORRUPT_DROPPED);

    assertArrayEquals(data, cluster.read(file));
    assertEquals(dropped + 1, cluster.total(CacheCounter.CORRUPT_DROPPED));
    cluster.assertNoCorruptReplicas();
    // The next whole read from the HDD fills a good copy.
    cluster.read(file);
    cluster.waitCached(file);
    cluster.garbleHddReplicas(file);
    assertArrayEquals(data, cluster.read(file));
  }

  @Test
  void aCorruptOrTruncatedChecksumFileIsDropped() throws Exception {
    Path flipped = new Path("/corrupt-meta");
    Path truncated = new Path("/truncated-meta");
    byte[] flippedData = cluster.write(flipped, BLOCK_SIZE, 6);
    byte[] truncatedData = cluster.write(truncated, BLOCK_SIZE, 7);
    cluster.read(flipped);
    cluster.read(truncated);
    cluster.waitCached(flipped);
    cluster.waitCached(truncated);
    File flippedMeta = metaOf(cluster.copyDataFile(cluster.blocks(flipped).get(0)));
    CacheTestCluster.overwrite(flippedMeta, flippedMeta.length() - 40, 8);
    File truncatedMeta = metaOf(cluster.copyDataFile(cluster.blocks(truncated).get(0)));
    try (var raf = new java.io.RandomAccessFile(truncatedMeta, "rw")) {
      raf.setLength(truncatedMeta.length() / 2);
    }
    long dropped = cluster.total(CacheCounter.CORRUPT_DROPPED);

    assertArrayEquals(flippedData, cluster.read(flipped));
    assertArrayEquals(truncatedData, cluster.read(truncated));
    assertEquals(dropped + 2, cluster.total(CacheCounter.CORRUPT_DROPPED));
    cluster.assertNoCorruptReplicas();
  }

  @Test
  void aTruncatedCopyIsDroppedAndTheReadServedFromHdd() throws Exception {
    Path file = new Path("/short-copy");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 8);
    try (var raf = new java.io.RandomAccessFile(
        cluster.copyDataFile(cluster.blocks(file).get(0)), "rw")) {
      raf.setLength(BLOCK_SIZE - 4096);
    }
    assertArrayEquals(data, cluster.read(file));
    cluster.assertNoCorruptReplicas();
  }

  @Test
  void aCopyEvictedBetweenTheTwoOpensIsServedFromTheFilesTheFirstOpened() throws Exception {
    Path file = new Path("/vanishing");
    byte[] data = cluster.writeCached(file, BLOCK_SIZE, 13);
    LocatedBlock block = cluster.blocks(file).get(0);
    InputCache cache = CacheTestCluster.cache(cluster.holder(block));
    long fromSsd = cache.counter(CacheCounter.BYTES_FROM_SSD);

    // BlockSender's two opens, with the copy's files deleted in between.
    cache.openMeta(block.getBlock(), ReadCaller.CLIENT_READ).close();
    File copy = cluster.copyDataFile(block);
    assertTrue(copy.delete() && new File(copy + ".meta").delete());
    try (java.io.InputStream in = cache.openData(block.getBlock(), 0, ReadCaller.CLIENT_READ)) {
      assertArrayEquals(data, in.readAllBytes(), "the copy as it was when the read began");
    }
    assertEquals(fromSsd + BLOCK_SIZE, cache.counter(CacheCounter.BYTES_FROM_SSD));

    // The next read cannot open the copy: it is dropped and the read served from the HDD.
    long dropped = cluster.total(CacheCounter.CORRUPT_DROPPED);
    assertArrayEquals(data, cluster.read(file));
    assertEquals(dropped + 1, cluster.total(CacheCounter.CORRUPT_DROPPED));
    cluster.assertNoCorruptReplicas();
  }

  @Test
  void appendNeverLetsTheOldCopyBeRead() throws Exception {
    Path file = new Path("/append");
    byte[] first = cluster.writeCached(file, BLOCK_SIZE / 2, 9);
    long invalidations = cluster.total(CacheCounter.INVALIDATIONS);

    byte[] more = new byte[1000];
    Arrays.fill(more, (byte) 7);
    try (FSDataOutputStream out = cluster.fs().append(file)) {
      out.write(more);
    }
    byte[] expected = Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, expected, first.length, more.length);
    assertArrayEquals(expected, cluster.read(file));
    assertTrue(cluster.total(CacheCounter.INVALIDATIONS) > invalidations);
    // The appended block is cached afresh, with its new generation stamp.
    cluster.waitCached(file);
    cluster.garbleHddReplicas(file);
    assertArrayEquals(expected, cluster.read(file));
  }

  @Test
  void truncateThenRewriteToTheSameLengthServesTheNewBytes() throws Exception {
    Path file = new Path("/truncate");
    byte[] original = cluster.writeCached(file, BLOCK_SIZE, 10);

    int keep = BLOCK_SIZE / 2 + 100;
    cluster.truncate(file, keep);
    assertArrayEquals(Arrays.copyOf(original, keep), cluster.read(file));

    byte[] tail = new byte[BLOCK_SIZE - keep];
    Arrays.fill(tail, (byte) 1);
    try (FSDataOutputStream out = cluster.fs().append(file)) {
      out.write(tail);
    }
    byte[] expected = Arrays.copyOf(original, BLOCK_SIZE);
    System.arraycopy(tail, 0, expected, keep, tail.length);
    assertArrayEquals(expected, cluster.read(file));
  }


  @Test
  void deleteRemovesTheCopies() throws Exception {
    Path file = new Path("/delete");
    cluster.writeCached(file, 2 * BLOCK_SIZE, 11);
    List<LocatedBlock> blocks = cluster.blocks(file);
    List<File> copies = new java.util.ArrayList<>();
    for (LocatedBlock block : blocks) {
      copies.add(cluster.copyDataFile(block));
    }
    cluster.fs().delete(file, false);
    GenericTestUtils.waitFor(() -> copies.stream().noneMatch(File::exists), 50, 30_000,
        "the SSD copies of the deleted file are gone");
    blocks.forEach(block -> assertFalse(cluster.isCached(block)));
  }

  @Test
  void copiesStayWithinTheCapacityByEvictingLeastRecentlyUsed() throws Exception {
    // 8 MB per node; 120 blocks of 256 KB over 3 nodes overflow at least one node.
    Path file = new Path("/capacity");
    cluster.write(file, 120 * BLOCK_SIZE, 12);
    cluster.read(file);
    for (int i = 0; i < 3; i++) {
      InputCache cache = cluster.cache(i);
      assertTrue(cache.usedBytes() <= cache.capacityBytes(),
          "node " + i + " uses " + cache.usedBytes() + " > " + cache.capacityBytes());
    }
    assertTrue(cluster.total(CacheCounter.EVICTIONS) > 0);
  }

  private static File metaOf(File data) {
    return new File(data.getPath() + ".meta");
  }
}
