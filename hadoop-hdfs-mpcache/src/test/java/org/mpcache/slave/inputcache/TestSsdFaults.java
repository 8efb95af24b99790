package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIR_CHECK_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIR_IO_TIMEOUT_KEY;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault suite: SSD trouble injected through each DataNode's {@code FileIoProvider} event hook
 * ({@link SsdFaults}) or made by editing copy files, on two DataNodes, read remotely and through
 * the legacy short-circuit reader (the descriptor-passing reader needs libhadoop; its part is in
 * {@code TestMpCacheShortCircuitFds}). Every case checks that the bytes read are the bytes
 * written, that the NameNode marks no replica corrupt and that every HDD replica is still there.
 */
@Timeout(300)
class TestSsdFaults {
  private static CacheTestCluster cluster;
  private static final List<SsdFaults> FAULTS = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY,
        UserGroupInformation.getCurrentUser().getShortUserName());
    conf.set(DFS_MPCACHE_DIR_CHECK_KEY, "200ms");
    conf.set(DFS_MPCACHE_DIR_IO_TIMEOUT_KEY, "1s");
    // A read stuck on a hung device is given up by its client after this, and retried.
    conf.setInt(HdfsClientConfigKeys.DFS_CLIENT_SOCKET_TIMEOUT_KEY, 5_000);
    // Two IPC handlers, which legacy short-circuit readers and recoveries share.
    conf.setInt(DFSConfigKeys.DFS_DATANODE_HANDLER_COUNT_KEY, 2);
    cluster = CacheTestCluster.start("faults", conf, 2, null);
    for (DataNode dn : cluster.mini().getDataNodes()) {
      FAULTS.add(SsdFaults.install(dn.getFileIoProvider()));
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void healed() throws Exception {
    FAULTS.forEach(SsdFaults::release);
    GenericTestUtils.waitFor(() -> cluster.mini().getDataNodes().stream()
        .allMatch(dn -> CacheTestCluster.cache(dn).failedDirs().isEmpty()), 20, 30_000,
        "every SSD dir in use again");
  }

  @Test
  void rotInACopysDataReachesNoReader() throws Exception {
    for (short replication = 1; replication <= 2; replication++) {
      Path file = new Path("/rot-data-" + replication);
      byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 1, replication);
      cluster.fillOnEveryHolder(file);
      for (LocatedBlock block : cluster.blocks(file)) {
        for (File copy : cluster.copyDataFiles(block)) {
          CacheTestCluster.overwrite(copy, BLOCK_SIZE / 2 + 3, 1);
        }
      }
      assertEveryReaderGets(file, data, replication);
    }
  }

  @Test
  void rotInACopysChecksumFileReachesNoReader() throws Exception {
    for (short replication = 1; replication <= 2; replication++) {
      Path file = new Path("/rot-meta-" + replication);
      byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 2, replication);
      cluster.fillOnEveryHolder(file);
      List<LocatedBlock> blocks = cluster.blocks(file);
      for (File copy : cluster.copyDataFiles(blocks.get(0))) {
        CacheTestCluster.overwrite(new File(copy + ".meta"), 100, 2); // a checksum
      }
      for (File copy : cluster.copyDataFiles(blocks.get(1))) {
        CacheTestCluster.overwrite(new File(copy + ".meta"), 2, 1); // the header's type
      }
      assertEveryReaderGets(file, data, replication);
    }
  }

  @Test
  void ssdReadsThatFailSendReadersToTheHdd() throws Exception {
    Path file = new Path("/failing-reads");
    byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 3, (short) 1);
    cluster.fillOnEveryHolder(file);
    FAULTS.forEach(faults -> faults.fail(OPERATION.READ));

    assertEveryReaderGets(file, data, 1);
    assertTrue(cluster.total(CacheCounter.CORRUPT_DROPPED) > 0);
  }

  @Test
  void anSsdCallThatHangsStallsOnlyItsOwnRead() throws Exception {
    Path cached = new Path("/hung-cached");
    Path uncached = new Path("/hung-uncached");
    byte[] data = cluster.writeOn(cached, BLOCK_SIZE, 4, 0);
    byte[] other = cluster.writeOn(uncached, 3 * BLOCK_SIZE, 5, 0);
    cluster.read(cached);
    cluster.waitCached(cached);
    SsdFaults faults = FAULTS.get(0);
    faults.hang(OPERATION.READ);

    CompletableFuture<byte[]> stuck = CompletableFuture.supplyAsync(() -> read(cached));
    GenericTestUtils.waitFor(() -> faults.hanging() > 0, 10, 30_000, "a copy read hangs");
    assertArrayEquals(other, cluster.read(uncached), "a read of an uncached block goes on");
    // The client gives the stuck read up and retries; the dir is out of use by then.
    assertArrayEquals(data, stuck.get(60, TimeUnit.SECONDS));
    assertTrue(cluster.cache(0).failedDirs().get(0).contains("has not returned"));
    cluster.assertHddReplicasIntact(cached, 1);
    cluster.assertHddReplicasIntact(uncached, 1);
  }

  /**
   * Legacy short-circuit readers ask the DataNode's IPC handlers for a block's paths, and a copy
   * not verified within the hand-out age (0 here) is read and verified whole first: off the
   * handler, which waits for it at most the I/O timeout. With the SSD hung, the handlers answer
   * (with the HDD replica's paths) and go on serving what lease and pipeline recovery need.
   */
  @Test
  void aHungSsdHoldsNoIpcHandlerOfTheDataNode() throws Exception {
    Path file = new Path("/hung-handouts");
    cluster.writeOn(file, 4 * BLOCK_SIZE, 11, 0);
    cluster.read(file);
    cluster.waitCached(file);
    List<LocatedBlock> blocks = cluster.blocks(file);
    DataNode dn = cluster.mini().getDataNodes().get(0);
    ClientDatanodeProtocol handlers = DFSUtilClient.createClientDatanodeProtocolProxy(
        dn.getDatanodeId(), cluster.fs().getConf(), 60_000, false);
    FAULTS.get(0).hang(OPERATION.READ);

    ExecutorService legacyReaders = Executors.newFixedThreadPool(2 * blocks.size());
    try {
      List<Future<BlockLocalPathInfo>> handouts = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        for (LocatedBlock block : blocks) {
          handouts.add(legacyReaders.submit(() -> handlers.getBlockLocalPathInfo(
              block.getBlock(), block.getBlockToken())));
        }
      }
      GenericTestUtils.waitFor(() -> FAULTS.get(0).hanging() > 0, 10, 30_000,
          "a hand-out's verification hangs in the device");
      // A liveness check with a generous bound, not a timing assertion.
      long visible = assertTimeoutPreemptively(Duration.ofSeconds(60),
          () -> handlers.getReplicaVisibleLength(blocks.get(0).getBlock()),
          "an IPC handler stays held by the hung SSD");
      assertEquals(BLOCK_SIZE, visible);
      for (Future<BlockLocalPathInfo> handout : handouts) {
        String path = handout.get(60, TimeUnit.SECONDS).getBlockPath();
        assertFalse(path.contains("/mpcache/input/"), "the HDD replica's path: " + path);
      }
    } finally {
      legacyReaders.shutdownNow();
      RPC.stopProxy(handlers);
    }
    cluster.assertHddReplicasIntact(file, 1);
  }

  @Test
  void aFullSsdCostsNoRead() throws Exception {
    FAULTS.forEach(SsdFaults::full);
    Path file = new Path("/full");
    long aborted = cluster.total(CacheCounter.FILLS_ABORTED);
    byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 6, (short) 1);

    assertEveryReaderGets(file, data, 1);
    assertTrue(cluster.total(CacheCounter.FILLS_ABORTED) > aborted);
    assertTrue(cluster.cache(0).enabled() && cluster.cache(1).enabled());
  }

  @Test
  void theSameShortCircuitClientReadsTheNewBytesAfterTruncateAndAppend() throws Exception {
    Path file = new Path("/truncate-append");
    byte[] original = cluster.write(file, BLOCK_SIZE, 7, (short) 1);
    cluster.fillOnEveryHolder(file);
    try (FileSystem local = cluster.shortCircuitClient("same-client")) {
      assertArrayEquals(original, DFSTestUtil.readFileBuffer(local, file));
      assertTrue(shortCircuitBytes(local, file) > 0, "the client holds the copy's paths");

      int keep = BLOCK_SIZE / 2;
      cluster.truncate(file, keep);
      byte[] tail = new byte[BLOCK_SIZE - keep];
      Arrays.fill(tail, (byte) 42);
      try (FSDataOutputStream out = cluster.fs().append(file)) {
        out.write(tail);
      }
      byte[] expected = Arrays.copyOf(original, BLOCK_SIZE);
      System.arraycopy(tail, 0, expected, keep, tail.length);

      assertArrayEquals(expected, DFSTestUtil.readFileBuffer(local, file),
          "same length, new bytes: never the old copy");
      assertArrayEquals(expected, cluster.read(file));
    }
    cluster.assertHddReplicasIntact(file, 1);
  }

  @Test
  void anOldCopyLeftOnTheSsdIsNeverReadForANewGeneration() throws Exception {
    Path file = new Path("/left-behind");
    byte[] original = cluster.write(file, BLOCK_SIZE, 10, (short) 1);
    cluster.fillOnEveryHolder(file);
    File copy = cluster.copyDataFile(cluster.blocks(file).get(0));
    File meta = new File(copy + ".meta");
    File keptCopy = new File(copy.getParentFile(), "kept");
    File keptMeta = new File(copy.getParentFile(), "kept.meta");
    try (FileSystem local = cluster.shortCircuitClient("kept-paths")) {
      assertArrayEquals(original, DFSTestUtil.readFileBuffer(local, file));
      java.nio.file.Files.copy(copy.toPath(), keptCopy.toPath());
      java.nio.file.Files.copy(meta.toPath(), keptMeta.toPath());

      // Truncate and append back to the same length; the old copy's files are then put back
      // where they were, as deletes that failed would leave them.
      cluster.truncate(file, BLOCK_SIZE / 2);
      byte[] tail = new byte[BLOCK_SIZE / 2];
      Arrays.fill(tail, (byte) 17);
      try (FSDataOutputStream out = cluster.fs().append(file)) {
        out.write(tail);
      }
      java.nio.file.Files.move(keptCopy.toPath(), copy.toPath());
      java.nio.file.Files.move(keptMeta.toPath(), meta.toPath());
      byte[] expected = Arrays.copyOf(original, BLOCK_SIZE);
      System.arraycopy(tail, 0, expected, BLOCK_SIZE / 2, tail.length);

      assertArrayEquals(expected, DFSTestUtil.readFileBuffer(local, file),
          "the client cached the copy's data path with the replica's checksum path, which the"
              + " new generation renamed: it falls back");
    } finally {
      java.nio.file.Files.deleteIfExists(copy.toPath());
      java.nio.file.Files.deleteIfExists(meta.toPath());
    }
    cluster.assertHddReplicasIntact(file, 1);
  }

  @Test
  void anEvictionWhileAShortCircuitReaderHoldsTheCopyChangesNothingForIt() throws Exception {
    Path file = new Path("/evicted-under-reader");
    byte[] data = cluster.write(file, BLOCK_SIZE, 8, (short) 1);
    cluster.fillOnEveryHolder(file);
    ExtendedBlock block = cluster.blocks(file).get(0).getBlock();
    try (FileSystem local = cluster.shortCircuitClient("holding");
        FSDataInputStream in = local.open(file)) {
      byte[] read = new byte[data.length];
      in.readFully(0, read, 0, data.length / 2);
      cluster.ssdCache(cluster.holderIndex(cluster.blocks(file).get(0)))
          .evict(block.getBlockPoolId(), new long[] {block.getBlockId()});
      in.readFully(data.length / 2, read, data.length / 2, data.length - data.length / 2);
      assertArrayEquals(data, read);
      assertArrayEquals(data, DFSTestUtil.readFileBuffer(local, file));
    }
    cluster.assertHddReplicasIntact(file, 1);
  }

  @Test
  void aReplicaChangeWhileTheSsdHangsGoesOnAfterTheIoTimeout() throws Exception {
    Path file = new Path("/append-hung");
    byte[] original = cluster.writeOn(file, BLOCK_SIZE / 2, 9, 1);
    cluster.fillOnEveryHolder(file);
    FAULTS.get(1).hang(OPERATION.DELETE);

    byte[] more = new byte[1000];
    Arrays.fill(more, (byte) 9);
    try (FSDataOutputStream out = cluster.fs().append(file)) {
      out.write(more);
    }
    byte[] expected = Arrays.copyOf(original, original.length + more.length);
    System.arraycopy(more, 0, expected, original.length, more.length);
    assertEveryReaderGets(file, expected, 1);
    // Out of use for the hang: failed by the waiting change or by the watch, whichever was first.
    String failure = cluster.cache(1).failedDirs().get(0);
    assertTrue(failure.contains("before its replica changed") || failure.contains("has not returned"),
        failure);
  }

  /**
   * Remote reads, and five fresh legacy short-circuit clients, all get {@code data}; then the
   * HDD replicas are checked.
   */
  private static void assertEveryReaderGets(Path file, byte[] data, int replication)
      throws Exception {
    assertArrayEquals(data, cluster.read(file), "remote read of " + file);
    for (int i = 0; i < 5; i++) {
      try (FileSystem local = cluster.shortCircuitClient(file + "-fresh-" + i)) {
        assertArrayEquals(data, DFSTestUtil.readFileBuffer(local, file),
            "short-circuit read " + i + " of " + file);
      }
    }
    cluster.assertHddReplicasIntact(file, replication);
  }

  private static long shortCircuitBytes(FileSystem fs, Path file) throws IOException {
    try (HdfsDataInputStream in = (HdfsDataInputStream) fs.open(file)) {
      in.readFully(0, new byte[1024]);
      return in.getReadStatistics().getTotalShortCircuitBytesRead();
    }
  }

  private static byte[] read(Path file) {
    try {
      return cluster.read(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
