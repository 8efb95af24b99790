package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;

/**
 * A MiniDFSCluster whose DataNodes run the mpCache slave, each on its own "SSD" dir, with small
 * blocks and fast client retries; plus the file and block helpers the tests share.
 */
public final class CacheTestCluster implements AutoCloseable {
  public static final int BLOCK_SIZE = 256 << 10;
  public static final int BYTES_PER_CHECKSUM = 512;

  private final MiniDFSCluster cluster;
  private final File base;

  private CacheTestCluster(MiniDFSCluster cluster, File base) {
    this.cluster = cluster;
    this.base = base;
  }

  /** Settings every test cluster shares; tests adjust them before {@link #start}. */
  public static Configuration conf() {
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_SIZE);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, BYTES_PER_CHECKSUM);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.setLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(HdfsClientConfigKeys.Retry.WINDOW_BASE_KEY, 10);
    quickWriteRetries(conf);
    conf.set(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, DATASET_FACTORY_CLASS);
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
    conf.set(DFS_MPCACHE_CAPACITY_KEY, "8m");
    // The scrubber re-reads every copy without pause: on 2 cores it only runs where a test
    // turns it on.
    conf.setLong(DFS_MPCACHE_SCRUB_RATE_KEY, 0);
    return conf;
  }

  /**
   * A writer asks the NameNode again for its next block or to close the file while the NameNode
   * waits for the DataNodes' report of the last block: first after 50 ms, not Hadoop's 400 ms
   * (most files here are written in well under that), and ten times, not five, so the whole wait
   * may last longer than Hadoop's (51 s against 12 s) on a loaded machine. Shared with the test
   * clusters of the other modules.
   */
  public static Configuration quickWriteRetries(Configuration conf) {
    conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, 50);
    conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY, 10);
    return conf;
  }

  /**
   * {@link #conf()} with the master in the NameNode at {@code master}, heartbeats driven by the
   * test (the interval is an hour) and two blocks of cache a DataNode.
   */
  public static Configuration confWithMaster(InetSocketAddress master) {
    Configuration conf = conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(master));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h");
    conf.set(DFS_MPCACHE_CAPACITY_KEY, "600k"); // 2 blocks of 256 KB with their checksums
    return conf;
  }

  /**
   * Starts {@code dataNodes} DataNodes; DataNode i caches in {@code <test dir>/ssd<i>}, created
   * beforehand, unless {@code ssdDirs} adjusts its overlay.
   */
  public static CacheTestCluster start(String name, Configuration conf, int dataNodes,
      Consumer<DataNodeSetup> ssdDirs) throws IOException {
    return start(name, conf, dataNodes, ssdDirs, MiniDFSNNTopology.simpleSingleNN(0, 0));
  }

  /** As above, with the NameNodes of {@code topology} (e.g. an HA pair). */
  public static CacheTestCluster start(String name, Configuration conf, int dataNodes,
      Consumer<DataNodeSetup> ssdDirs, MiniDFSNNTopology topology) throws IOException {
    return start(name, conf, dataNodes, ssdDirs, builder -> builder.nnTopology(topology));
  }

  /** As above, with what else {@code cluster} sets on the MiniDFSCluster's builder. */
  public static CacheTestCluster start(String name, Configuration conf, int dataNodes,
      Consumer<DataNodeSetup> ssdDirs, Consumer<MiniDFSCluster.Builder> cluster)
      throws IOException {
    File base = GenericTestUtils.getTestDir(name + "-" + System.nanoTime());
    Configuration[] overlays = new Configuration[dataNodes];
    for (int i = 0; i < dataNodes; i++) {
      File ssd = new File(base, "ssd" + i);
      if (!ssd.mkdirs()) {
        throw new IOException("cannot create " + ssd);
      }
      overlays[i] = new Configuration(false);
      overlays[i].set(DFS_MPCACHE_DIRS_KEY, ssd.getAbsolutePath());
      if (ssdDirs != null) {
        ssdDirs.accept(new DataNodeSetup(i, ssd, overlays[i]));
      }
    }
    MiniDFSCluster.Builder builder = new MiniDFSCluster.Builder(conf, new File(base, "dfs"))
        .numDataNodes(dataNodes).dataNodeConfOverlays(overlays);
    cluster.accept(builder);
    MiniDFSCluster mini = builder.build();
    mini.waitActive();
    CacheTestCluster started = new CacheTestCluster(mini, base);
    started.waitCopiesTakenIn();
    return started;
  }

  /**
   * Waits until every DataNode's cache has taken in the copies its dirs hold (after a start or a
   * restart): until then no fill goes to them.
   */
  public void waitCopiesTakenIn() throws IOException {
    try {
      GenericTestUtils.waitFor(() -> cluster.getDataNodes().stream()
          .allMatch(dn -> !(dn.getFSDataset() instanceof MpCacheFsDataset)
              || !cache(dn).takingInCopies()), 10, 30_000, "copies taken in");
    } catch (java.util.concurrent.TimeoutException | InterruptedException e) {
      throw new IOException(e);
    }
  }

  /** Waits until no DataNode has a fill under way (admissions answered, copies kept or not). */
  public void waitFillsEnded() throws Exception {
    GenericTestUtils.waitFor(() -> cluster.getDataNodes().stream()
        .allMatch(dn -> cache(dn).fillsUnderWay() == 0), 2, 60_000, "fills to end");
  }

  /** Runs one heartbeat (or registration attempt) of every DataNode's slave. */
  public void heartbeatAll() {
    for (DataNode dn : cluster.getDataNodes()) {
      SlaveTestUtils.heartbeat(cache(dn));
    }
  }

  /** Heartbeats until the master at {@code address} has every slave and decides. */
  public void waitMasterActive(Configuration conf, InetSocketAddress address) throws Exception {
    GenericTestUtils.waitFor(() -> {
      heartbeatAll();
      try (MasterProtocolClientSideTranslatorPB master =
          MasterProtocolClientSideTranslatorPB.connect(conf, address, 10_000)) {
        return "active".equals(master.report().state());
      } catch (IOException e) {
        return false;
      }
    }, 100, 60_000, "the master to have every slave registered");
  }

  /** One DataNode's overlay, for tests that give it other SSD dirs or settings. */
  public record DataNodeSetup(int index, File ssdDir, Configuration overlay) {
  }

  public MiniDFSCluster mini() {
    return cluster;
  }

  public File baseDir() {
    return base;
  }

  public DistributedFileSystem fs() throws IOException {
    return cluster.getFileSystem();
  }

  public InputCache cache(int dataNodeIndex) {
    return cache(cluster.getDataNodes().get(dataNodeIndex));
  }

  public SsdInputCache ssdCache(int dataNodeIndex) {
    return ssdCache(cluster.getDataNodes().get(dataNodeIndex));
  }

  public static InputCache cache(DataNode dataNode) {
    return ((MpCacheFsDataset) dataNode.getFSDataset()).getInputCache();
  }

  /** The input cache of a DataNode whose settings are good: the one on its SSD dirs. */
  public static SsdInputCache ssdCache(DataNode dataNode) {
    return (SsdInputCache) cache(dataNode);
  }

  /** Writes {@code length} seeded random bytes with replication 1 and returns them. */
  public byte[] write(Path file, int length, long seed) throws IOException {
    return write(file, length, seed, (short) 1);
  }

  /**
   * Writes {@code length} seeded random bytes with the replication and returns them once the
   * NameNode knows every replica (a file closes when one is reported; the others may come later).
   * An erasure-coded file's blocks have no replicas to wait for.
   */
  public byte[] write(Path file, int length, long seed, short replication) throws IOException {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs().create(file, replication)) {
      out.write(data);
    }
    try {
      if (replication > 1) {
        DFSTestUtil.waitReplication(fs(), file, replication);
      }
    } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
      throw new IOException(file + ": not every replica was reported", e);
    }
    return data;
  }

  /**
   * A new client that reads local replicas through the legacy short-circuit reader (no native
   * code needed), in a client context of its own: a fresh client as far as cached paths go.
   * The cluster's configuration must name the current user in
   * {@code dfs.block.local-path-access.user}.
   */
  public FileSystem shortCircuitClient(String context) throws IOException {
    Configuration conf = new Configuration(fs().getConf());
    conf.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, context);
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.KEY, true);
    conf.setBoolean(HdfsClientConfigKeys.DFS_CLIENT_USE_LEGACY_BLOCKREADERLOCAL, true);
    conf.setBoolean(HdfsClientConfigKeys.Read.ShortCircuit.SKIP_CHECKSUM_KEY, false);
    return FileSystem.newInstance(fs().getUri(), conf);
  }

  /** As {@link #write}, then reads the file once and waits until every block has a copy. */
  public byte[] writeCached(Path file, int length, long seed) throws Exception {
    byte[] data = write(file, length, seed);
    read(file);
    waitCached(file);
    return data;
  }

  /** As {@link #write}, with the replica on DataNode {@code dataNode} (a favored node). */
  public byte[] writeOn(Path file, int length, long seed, int dataNode) throws IOException {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    InetSocketAddress[] favored = {cluster.getDataNodes().get(dataNode).getXferAddress()};
    try (FSDataOutputStream out = fs().create(file, FsPermission.getFileDefault(), false, 4096,
        (short) 1, BLOCK_SIZE, null, favored)) {
      out.write(data);
    }
    for (LocatedBlock block : blocks(file)) {
      if (holderIndex(block) != dataNode) {
        throw new IOException(file + " was not placed on DataNode " + dataNode);
      }
    }
    return data;
  }

  /** Truncates the file to {@code length} and waits for the block recovery that may follow. */
  public void truncate(Path file, long length) throws Exception {
    if (!fs().truncate(file, length)) {
      GenericTestUtils.waitFor(() -> {
        try {
          return fs().isFileClosed(file);
        } catch (IOException e) {
          return false;
        }
      }, 20, 30_000, "truncate recovery of " + file);
    }
  }

  /** Reads the file, checking it holds {@code expected}. */
  public void readAndCheck(Path file, byte[] expected) throws IOException {
    assertArrayEquals(expected, read(file),
        file + " read back different bytes");
  }

  public byte[] read(Path file) throws IOException {
    return DFSTestUtil.readFileBuffer(fs(), file);
  }

  public List<LocatedBlock> blocks(Path file) throws IOException {
    return fs().getClient().getLocatedBlocks(file.toString(), 0).getLocatedBlocks();
  }

  /** The DataNode holding the (single) replica of a block. */
  public DataNode holder(LocatedBlock block) {
    int port = block.getLocations()[0].getXferPort();
    return cluster.getDataNodes().stream().filter(dn -> dn.getXferPort() == port).findFirst()
        .orElseThrow();
  }

  public int holderIndex(LocatedBlock block) {
    return cluster.getDataNodes().indexOf(holder(block));
  }

  public boolean isCached(LocatedBlock block) {
    ExtendedBlock b = block.getBlock();
    return cache(holder(block)).isCached(new BlockKey(b.getBlockPoolId(), b.getBlockId()));
  }

  /** Waits until every block of the file has an SSD copy. */
  public void waitCached(Path file) throws Exception {
    List<LocatedBlock> blocks = blocks(file);
    GenericTestUtils.waitFor(() -> blocks.stream().allMatch(this::isCached), 50, 30_000,
        "all blocks of " + file + " cached");
  }

  /**
   * Overwrites every HDD replica of the file with other bytes of the same length: a read that
   * still returns the original bytes was served from the SSD.
   */
  public void garbleHddReplicas(Path file) throws IOException {
    for (LocatedBlock block : blocks(file)) {
      File replica = cluster.getBlockFile(holderIndex(block), block.getBlock());
      overwrite(replica, 0, (int) replica.length());
    }
  }

  /** Overwrites {@code length} bytes at {@code offset} with bytes that differ from them. */
  public static void overwrite(File file, long offset, int length) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
      byte[] bytes = new byte[length];
      raf.seek(offset);
      raf.readFully(bytes);
      for (int i = 0; i < length; i++) {
        bytes[i] = (byte) ~bytes[i];
      }
      raf.seek(offset);
      raf.write(bytes);
    }
  }

  /** The SSD data file of a block's copy, found on disk under the holder's SSD dir. */
  public File copyDataFile(LocatedBlock block) throws IOException {
    ExtendedBlock b = block.getBlock();
    return copiesUnder(new File(base, "ssd" + holderIndex(block)), b).stream().findFirst()
        .orElseThrow(() -> new IOException("no SSD copy of " + b));
  }

  /**
   * Reads the file through each holder's cache as a remote reader does, leaving a copy of every
   * block on every DataNode that holds it.
   */
  public void fillOnEveryHolder(Path file) throws Exception {
    for (LocatedBlock block : blocks(file)) {
      for (DatanodeInfo location : block.getLocations()) {
        fill(block, cluster.getDataNode(location.getIpcPort()));
      }
    }
  }

  /**
   * Reads a block whole through a DataNode's cache as a remote reader does (the NameNode is not
   * asked: the file may be gone) and waits until the copy is kept.
   */
  public void fill(LocatedBlock block, DataNode dataNode) throws Exception {
    InputCache cache = cache(dataNode);
    ExtendedBlock b = block.getBlock();
    InputStream meta = cache.openMeta(b, ReadCaller.CLIENT_READ);
    try (InputStream data = cache.openData(b, 0, ReadCaller.CLIENT_READ)) {
      IOUtils.readFully(data, new byte[(int) b.getNumBytes()], 0, (int) b.getNumBytes());
    } finally {
      IOUtils.closeStream(meta);
    }
    BlockKey key = new BlockKey(b.getBlockPoolId(), b.getBlockId());
    GenericTestUtils.waitFor(() -> cache.isCached(key), 10, 30_000, key + " cached");
  }

  /** The SSD data files of a block's copies on every DataNode. */
  public List<File> copyDataFiles(LocatedBlock block) throws IOException {
    List<File> copies = new java.util.ArrayList<>();
    for (int i = 0; i < cluster.getDataNodes().size(); i++) {
      copies.addAll(copiesUnder(new File(base, "ssd" + i), block.getBlock()));
    }
    return copies;
  }

  /** Data files of a block's copies under one SSD dir's layout (not its probe files). */
  private static List<File> copiesUnder(File ssd, ExtendedBlock b) throws IOException {
    java.nio.file.Path input = ssd.toPath().resolve("mpcache/input");
    if (!java.nio.file.Files.isDirectory(input)) {
      return List.of();
    }
    try (var files = java.nio.file.Files.walk(input)) {
      return files.map(java.nio.file.Path::toFile)
          .filter(f -> f.getName().startsWith("blk_" + b.getBlockId() + "_")
              && !f.getName().endsWith(".meta"))
          .toList();
    }
  }

  public long counter(int dataNodeIndex, CacheCounter counter) {
    return cache(dataNodeIndex).counter(counter);
  }

  /** The sum of a counter over all DataNodes. */
  public long total(CacheCounter counter) {
    return cluster.getDataNodes().stream().mapToLong(dn -> cache(dn).counter(counter)).sum();
  }

  /**
   * Asserts that the cache harmed no HDD replica of the file: each block still has
   * {@code replication} replicas, none marked corrupt, and each holder still has its files.
   */
  public void assertHddReplicasIntact(Path file, int replication) throws IOException {
    assertNoCorruptReplicas();
    for (LocatedBlock block : blocks(file)) {
      assertEquals(replication, block.getLocations().length, "replicas of " + block.getBlock());
      org.junit.jupiter.api.Assertions.assertFalse(block.isCorrupt(), block + " is corrupt");
      for (var location : block.getLocations()) {
        int index = cluster.getDataNodes().indexOf(cluster.getDataNode(location.getIpcPort()));
        File replica = cluster.getBlockFile(index, block.getBlock());
        org.junit.jupiter.api.Assertions.assertTrue(replica != null && replica.exists(),
            "the replica of " + block.getBlock() + " on DataNode " + index);
      }
    }
  }

  /** Asserts the NameNode knows no corrupt replica, once every DataNode has sent what it had. */
  public void assertNoCorruptReplicas() throws IOException {
    for (DataNode dn : cluster.getDataNodes()) {
      DataNodeTestUtils.triggerHeartbeat(dn);
    }
    assertEquals(0, cluster.getNamesystem().getCorruptReplicaBlocks(),
        "the NameNode holds corrupt replicas");
  }

  @Override
  public void close() {
    cluster.shutdown();
  }
}
