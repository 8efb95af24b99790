package org.mpcache.master.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.FSDirectory.DirOp;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.ReadOnlyList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.conf.CachedPaths;
import org.mpcache.master.namespace.Namespace.BlockOwner;
import org.mpcache.master.namespace.Namespace.BlockReplicas;
import org.mpcache.slave.inputcache.CacheTestCluster;

/** The master's reach into the namesystem (the cluster tests cover what it finds). */
class TestNameNodeNamespace {
  private static final int BLOCK = 4096;
  private static MiniDFSCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = CacheTestCluster.quickWriteRetries(new Configuration());
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    fs = cluster.getFileSystem();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static NameNodeNamespace namespace(int workPerHold) {
    return new NameNodeNamespace(cluster.getNamesystem(), false,
        () -> new CachedPaths(List.of(), List.of()), BLOCK,
        new NamesystemHolds(cluster.getNamesystem(), workPerHold, (wall, cpu) -> { }));
  }

  private static long firstBlock(Path file) throws Exception {
    return DFSTestUtil.getAllBlocks(fs, file).get(0).getBlock().getBlockId();
  }

  @Test
  void theNamesystemsReadLockIsLetGoWhenAHoldsBudgetIsSpent() {
    NameNodeNamespace namespace = namespace(NamesystemHolds.WORK_PER_HOLD);
    int lookupsPerHold = NamesystemHolds.WORK_PER_HOLD / NamesystemHolds.LOOKUP_WORK;

    BlockOwner[] owners = namespace.ownersOf(new long[2 * lookupsPerHold + 1]);

    assertEquals(2 * lookupsPerHold + 1, owners.length);
    assertTrue(Arrays.stream(owners).allMatch(Objects::isNull), "no such blocks");
    assertEquals(3, namespace.holds().holds());
    assertEquals(NamesystemHolds.WORK_PER_HOLD, namespace.holds().mostWorkInAHold());
  }

  /**
   * Issue 49's second defect: a directory of many files, one of them open for write, was
   * counted child by child at every lookup through it, under one hold of the namesystem's lock.
   * Now a hold does at most its budget of work, and the directory is counted about once over the
   * lookups, its size estimated until the count is through.
   */
  @Test
  void aLargeDirectoryWithAFileOpenForWriteCostsAtMostABudgetPerHold() throws Exception {
    int files = 1_000;
    int budget = 200;
    Path read = new Path("/large/part-0");
    DFSTestUtil.createFile(fs, read, BLOCK, (short) 1, 1);
    for (int i = 1; i < files; i++) {
      DFSTestUtil.createFile(fs, new Path("/large/empty-" + i), 0, (short) 1, i);
    }
    NameNodeNamespace namespace = namespace(budget);
    long block = firstBlock(read);
    try (FSDataOutputStream open = fs.create(new Path("/large/open"))) {
      open.write(new byte[BLOCK]);
      open.hflush();
      int lookups = 30;
      int lastSize = 0;
      for (int i = 0; i < lookups; i++) {
        BlockOwner owner = namespace.ownersOf(new long[] {block})[0];
        assertTrue(owner.dataSet().blocks() > 0, "a data set while it is counted");
        lastSize = owner.dataSet().blocks();
      }

      assertTrue(namespace.holds().mostWorkInAHold() <= budget,
          "most work in a hold: " + namespace.holds().mostWorkInAHold());
      long counted = namespace.holds().work() - (long) lookups * NamesystemHolds.LOOKUP_WORK;
      assertTrue(counted <= 2L * (files + 1), "children visited over " + lookups
          + " lookups: " + counted + ", the directory has " + (files + 1));
      assertEquals(2, lastSize, "part-0's block and the open file's");
    }
  }

  @Test
  void aLoadWalksALargeDirectoryInHoldsOfItsBudget() throws Exception {
    int budget = 100;
    for (int i = 0; i < 40; i++) {
      DFSTestUtil.createFile(fs, new Path("/load/part-" + i), BLOCK, (short) 1, i);
    }
    DFSTestUtil.createFile(fs, new Path("/load/large"), 30 * BLOCK, (short) 1, 40);
    NameNodeNamespace namespace = namespace(budget);

    List<BlockReplicas> replicas = namespace.blocksOf(namespace.dataSetAt("/load"));

    assertEquals(70, replicas.size());
    assertEquals(70, replicas.stream().map(BlockReplicas::blockId).distinct().count());
    String dataNode = cluster.getDataNodes().get(0).getDatanodeUuid();
    assertTrue(replicas.stream().allMatch(block -> block.datanodeUuids().equals(
        List.of(dataNode))), "each block's replica on the one DataNode");
    assertTrue(namespace.holds().mostWorkInAHold() <= budget);
    assertTrue(namespace.holds().holds() >= 70 * NamesystemHolds.LOOKUP_WORK / budget,
        "holds: " + namespace.holds().holds());
  }

  /**
   * A count goes on after the last child name it counted, as the NameNode's own listing does
   * ({@code INodeDirectory.nextChild}, package-private): the children are sorted by name and the
   * two find the same place, the name there or not.
   */
  @Test
  void aCountResumesWhereHadoopsOwnListingWould() throws Exception {
    for (String name : List.of("b", "a", "d", "c0")) {
      DFSTestUtil.createFile(fs, new Path("/sorted/" + name), 0, (short) 1, 0);
    }
    INodeDirectory directory = cluster.getNamesystem().getFSDirectory()
        .getINode("/sorted", DirOp.READ).asDirectory();
    ReadOnlyList<INode> children = directory.getChildrenList(Snapshot.CURRENT_STATE_ID);
    List<String> names = new ArrayList<>();
    children.forEach(child -> names.add(child.getLocalName()));
    assertEquals(List.of("a", "b", "c0", "d"), names, "INodeDirectory's children sorted by name");
    Method hadoops = INodeDirectory.class.getDeclaredMethod("nextChild", ReadOnlyList.class,
        byte[].class);
    hadoops.setAccessible(true);
    for (String after : List.of("", "a", "b", "c", "c0", "c00", "d", "e")) {
      byte[] name = DFSUtil.string2Bytes(after);
      assertEquals(hadoops.invoke(null, children, name), DirectorySizes.nextChild(children, name),
          "after '" + after + "'");
    }
  }

  /**
   * Neither a file's blocks added after its creation nor an append change its directory's
   * modification time: a lookup through a file closed or appended to since the count counts the
   * directory again.
   */
  @Test
  void aDirectorysSizeFollowsBlocksAddedWithoutChangingIt() throws Exception {
    NameNodeNamespace namespace = namespace(NamesystemHolds.WORK_PER_HOLD);
    DFSTestUtil.createFile(fs, new Path("/d/a"), BLOCK, (short) 1, 1);
    assertEquals(1, namespace.dataSetAt("/d").blocks());

    try (FSDataOutputStream written = fs.create(new Path("/d/b"))) {
      assertEquals(1, namespace.dataSetAt("/d").blocks(), "b has no block yet");
      written.write(new byte[2 * BLOCK]);
    }
    assertEquals(3, namespace.ownersOf(new long[] {firstBlock(new Path("/d/b"))})[0]
        .dataSet().blocks(), "b's 2 blocks, added after its create");
    assertEquals(3, namespace.dataSetAt("/d").blocks());

    DFSTestUtil.appendFile(fs, new Path("/d/a"), BLOCK);
    List<LocatedBlock> blocksOfA = DFSTestUtil.getAllBlocks(fs, new Path("/d/a"));
    BlockOwner[] owners = namespace.ownersOf(new long[] {
        blocksOfA.get(0).getBlock().getBlockId(), blocksOfA.get(1).getBlock().getBlockId()});
    assertEquals(4, owners[1].dataSet().blocks(), "a's appended block");
    assertTrue(owners[0].startsFile(), "a's first block starts its file");
    assertFalse(owners[1].startsFile(), "the appended block does not");
  }
}
