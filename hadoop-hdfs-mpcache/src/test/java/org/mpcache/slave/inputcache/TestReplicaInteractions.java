package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_HEARTBEAT_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.apache.hadoop.io.erasurecode.ECSchema;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.tools.FreePorts;

/**
 * How the cache meets the rest of HDFS, on a cluster configured from the sample
 * {@code conf/hdfs-site.xml} (only paths, ports, block sizes and timeouts are the test's): stock
 * clients after every kind of replica change, erasure-coded blocks, replicas already on SSD, a
 * truncate of a file in a snapshot, and a decommissioning DataNode. Three DataNodes, each with a
 * DISK and an SSD volume beside its mpCache dir, and the cache master in the NameNode.
 */
@Timeout(300)
class TestReplicaInteractions {
  private static final File SAMPLE = new File("../conf/hdfs-site.xml");
  private static CacheTestCluster cluster;
  private static String masterAddress;

  @BeforeAll
  static void startCluster() throws Exception {
    assertTrue(SAMPLE.isFile(), SAMPLE.getAbsolutePath());
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(SAMPLE.getAbsolutePath()));
    Configuration test = CacheTestCluster.conf();
    test.forEach(entry -> conf.set(entry.getKey(), entry.getValue()));
    masterAddress = "127.0.0.1:" + FreePorts.outsideEphemeralRange();
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, masterAddress);
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "200ms");
    conf.set(DFSConfigKeys.DFS_BLOCK_LOCAL_PATH_ACCESS_USER_KEY,
        UserGroupInformation.getCurrentUser().getShortUserName());
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 1);
    cluster = CacheTestCluster.start("interactions", conf, 3, setup -> setup.overlay().set(
        DFS_MPCACHE_LOCALIZED_DIRS_KEY, new File(setup.ssdDir().getParentFile(),
            "localized" + setup.index()).getAbsolutePath()),
        builder -> builder.storageTypes(new StorageType[][] {
            {StorageType.DISK, StorageType.SSD}, {StorageType.DISK, StorageType.SSD},
            {StorageType.DISK, StorageType.SSD}}));
    assertEquals("org.mpcache.master.MpCacheMasterPlugin",
        cluster.mini().getNameNode().getConf().get(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY),
        "the master comes from the sample");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void stockClientsReadTheNewBytesAfterEveryReplicaChange() throws Exception {
    Path file = new Path("/changes/file");
    byte[] expected = cluster.write(file, BLOCK_SIZE + 1000, 1, (short) 1);
    try (FileSystem remote = FileSystem.newInstance(cluster.fs().getUri(), cluster.fs().getConf());
        FileSystem local = cluster.shortCircuitClient("long-lived")) {
      // An append.
      expected = change(file, expected, remote, local, () -> append(file, 500, 2));
      // A truncate inside the last block, then an append back to the same length.
      int length = expected.length;
      expected = change(file, expected, remote, local, () -> truncate(file, BLOCK_SIZE + 300));
      expected = change(file, expected, remote, local,
          () -> append(file, length - (BLOCK_SIZE + 300), 3));
      assertEquals(length, expected.length);
      // The file deleted and written again under its name.
      expected = change(file, expected, remote, local,
          () -> cluster.write(file, BLOCK_SIZE + 1000, 4, (short) 1));
    }
  }

  /** A change of the file; returns its bytes after. */
  @FunctionalInterface
  private interface Change {
    byte[] apply() throws Exception;
  }

  /**
   * Fills the copies, makes the change, then checks that the long-lived clients (which read the
   * file before) and a fresh short-circuit client all read what the change left.
   */
  private static byte[] change(Path file, byte[] before, FileSystem remote, FileSystem local,
      Change change) throws Exception {
    cluster.fillOnEveryHolder(file);
    assertArrayEquals(before, DFSTestUtil.readFileBuffer(remote, file));
    assertArrayEquals(before, DFSTestUtil.readFileBuffer(local, file));
    byte[] after = change.apply();
    assertArrayEquals(after, DFSTestUtil.readFileBuffer(remote, file), "remote read");
    assertArrayEquals(after, DFSTestUtil.readFileBuffer(local, file), "short-circuit read");
    try (FileSystem fresh = cluster.shortCircuitClient("fresh-" + System.nanoTime())) {
      assertArrayEquals(after, DFSTestUtil.readFileBuffer(fresh, file), "fresh client");
    }
    cluster.assertHddReplicasIntact(file, 1);
    return after;
  }

  private static byte[] append(Path file, int bytes, long seed) throws IOException {
    byte[] before = cluster.read(file);
    byte[] more = new byte[bytes];
    new java.util.Random(seed).nextBytes(more);
    try (FSDataOutputStream out = cluster.fs().append(file)) {
      out.write(more);
    }
    byte[] after = Arrays.copyOf(before, before.length + bytes);
    System.arraycopy(more, 0, after, before.length, bytes);
    return after;
  }

  private static byte[] truncate(Path file, int length) throws Exception {
    byte[] before = cluster.read(file);
    cluster.truncate(file, length);
    return Arrays.copyOf(before, length);
  }


  @Test
  void erasureCodedBlocksAreServedAsStockAndNeverCopied() throws Exception {
    DistributedFileSystem fs = cluster.fs();
    ErasureCodingPolicy policy = fs.addErasureCodingPolicies(new ErasureCodingPolicy[] {
        new ErasureCodingPolicy(new ECSchema("xor", 2, 1), 64 << 10)})[0].getPolicy();
    fs.enableErasureCodingPolicy(policy.getName());
    Path dir = new Path("/ec");
    fs.mkdirs(dir);
    fs.setErasureCodingPolicy(dir, policy.getName());
    Path file = new Path(dir, "striped");
    byte[] data = cluster.write(file, 4 * BLOCK_SIZE, 5, (short) 1);
    long fills = cluster.total(CacheCounter.FILLS);

    assertArrayEquals(data, cluster.read(file));
    assertArrayEquals(data, cluster.read(file));
    try (FileSystem local = cluster.shortCircuitClient("ec")) {
      assertArrayEquals(data, DFSTestUtil.readFileBuffer(local, file));
    }
    assertEquals(fills, cluster.total(CacheCounter.FILLS), "no internal block was copied");
    assertEquals(0, cluster.mini().getNamesystem().getCorruptReplicaBlocks());
  }

  @Test
  void replicasAlreadyOnSsdAreNeverCopied() throws Exception {
    Path dir = new Path("/on-ssd");
    cluster.fs().mkdirs(dir);
    cluster.fs().setStoragePolicy(dir, "ALL_SSD");
    Path file = new Path(dir, "file");
    byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 6, (short) 1);
    long fills = cluster.total(CacheCounter.FILLS);

    assertArrayEquals(data, cluster.read(file));
    try (FileSystem local = cluster.shortCircuitClient("on-ssd")) {
      assertArrayEquals(data, DFSTestUtil.readFileBuffer(local, file));
    }
    assertArrayEquals(data, cluster.read(file));
    for (LocatedBlock block : cluster.blocks(file)) {
      assertEquals(StorageType.SSD, block.getStorageTypes()[0]);
      assertTrue(cluster.copyDataFiles(block).isEmpty());
    }
    assertEquals(fills, cluster.total(CacheCounter.FILLS));
  }

  @Test
  void aTruncateOfAFileInASnapshotKeepsBothVersionsRight() throws Exception {
    Path dir = new Path("/snapshotted");
    Path file = new Path(dir, "file");
    byte[] original = cluster.write(file, 2 * BLOCK_SIZE, 7, (short) 1);
    cluster.fs().allowSnapshot(dir);
    cluster.fs().createSnapshot(dir, "s0");
    Path inSnapshot = new Path(dir, ".snapshot/s0/file");
    cluster.fillOnEveryHolder(file);

    // Copy-on-truncate: the truncated block gets a new id, the snapshot keeps the old block.
    byte[] truncated = truncate(file, BLOCK_SIZE + BLOCK_SIZE / 3);
    byte[] appended = append(file, 777, 8);
    try (FileSystem local = cluster.shortCircuitClient("snapshot")) {
      for (FileSystem reader : List.<FileSystem>of(cluster.fs(), local)) {
        assertArrayEquals(appended, DFSTestUtil.readFileBuffer(reader, file));
        assertArrayEquals(original, DFSTestUtil.readFileBuffer(reader, inSnapshot));
      }
      cluster.fillOnEveryHolder(inSnapshot);
      cluster.fillOnEveryHolder(file);
      assertArrayEquals(appended, DFSTestUtil.readFileBuffer(local, file));
      assertArrayEquals(original, DFSTestUtil.readFileBuffer(local, inSnapshot));
    }
    assertTrue(truncated.length < appended.length);
    cluster.assertHddReplicasIntact(file, 1);
    cluster.assertHddReplicasIntact(inSnapshot, 1);
  }

  @Test
  void aDecommissioningDataNodeKeepsServingButIsNoLongerOfferedItsCopies() throws Exception {
    Path file = new Path("/decommission/part-0");
    byte[] data = cluster.write(file, BLOCK_SIZE, 9, (short) 2);
    cluster.fillOnEveryHolder(file);
    LocatedBlock block = cluster.blocks(file).get(0);
    DataNode leaving = cluster.mini().getDataNode(block.getLocations()[0].getIpcPort());
    String uuid = leaving.getDatanodeUuid();
    FSNamesystem namesystem = cluster.mini().getNamesystem();
    DatanodeManager nodes = namesystem.getBlockManager().getDatanodeManager();
    DatanodeDescriptor node = nodes.getDatanode(uuid);
    try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
        .connect(cluster.fs().getConf(), NetUtils.createSocketAddr(masterAddress), 10_000)) {
      long[] ids = {block.getBlock().getBlockId()};
      GenericTestUtils.waitFor(() -> holders(master, ids).size() == 2, 20, 30_000,
          "the master knows both copies");
      assertTrue(holders(master, ids).contains(uuid));

      adminState(namesystem, () -> nodes.getDatanodeAdminManager().startDecommission(node));
      try {
        assertFalse(holders(master, ids).contains(uuid), "not offered to schedulers any more");
        assertEquals(1, holders(master, ids).size());
        assertArrayEquals(data, cluster.read(file));
        try (FileSystem local = cluster.shortCircuitClient("decommission")) {
          assertArrayEquals(data, DFSTestUtil.readFileBuffer(local, file));
        }
        GenericTestUtils.waitFor(node::isDecommissioned, 50, 60_000, "decommissioned");
        // The NameNode copied the HDD replica to the third node; its bytes are the data's.
        for (DatanodeInfo location : cluster.blocks(file).get(0).getLocations()) {
          DataNode holder = cluster.mini().getDataNode(location.getIpcPort());
          File replica = cluster.mini().getBlockFile(
              cluster.mini().getDataNodes().indexOf(holder), block.getBlock());
          assertArrayEquals(data, readAll(replica), "replica on " + location);
        }
        assertEquals(0, namesystem.getCorruptReplicaBlocks());
      } finally {
        adminState(namesystem, () -> nodes.getDatanodeAdminManager().stopDecommission(node));
      }
    }
  }

  private static List<String> holders(MasterProtocolClientSideTranslatorPB master, long[] ids) {
    try {
      return master.cachedOn(ids).get(0);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void adminState(FSNamesystem namesystem, Runnable change) {
    namesystem.writeLock(RwLockMode.GLOBAL);
    try {
      change.run();
    } finally {
      namesystem.writeUnlock(RwLockMode.GLOBAL, "test");
    }
  }

  private static byte[] readAll(File file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file, "r")) {
      byte[] bytes = new byte[(int) raf.length()];
      raf.readFully(bytes);
      return bytes;
    }
  }
}
