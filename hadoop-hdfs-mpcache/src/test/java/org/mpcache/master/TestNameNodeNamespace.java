package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.junit.jupiter.api.Test;
import org.mpcache.master.Namespace.BlockOwner;

/** The master's reach into the namesystem (the cluster tests cover what it finds). */
class TestNameNodeNamespace {
  private static final int BLOCK = 4096;

  @Test
  void theNamesystemsReadLockIsLetGoBetweenBatchesOfBlocks() {
    FSNamesystem namesystem = mock(FSNamesystem.class);
    when(namesystem.getBlockManager()).thenReturn(mock(BlockManager.class));
    NameNodeNamespace namespace =
        new NameNodeNamespace(namesystem, false, () -> new CachedPaths(List.of(), List.of()),
            1 << 20, new NamesystemHolds(namesystem, NamesystemHolds.WORK_PER_HOLD,
                (wall, cpu) -> { }));

    BlockOwner[] owners =
        namespace.ownersOf(new long[2 * NameNodeNamespace.BLOCKS_PER_LOCK + 1]);

    assertEquals(2 * NameNodeNamespace.BLOCKS_PER_LOCK + 1, owners.length);
    assertTrue(Arrays.stream(owners).allMatch(Objects::isNull), "no such blocks");
    verify(namesystem, times(3)).readLock(RwLockMode.GLOBAL);
    verify(namesystem, times(3)).readUnlock(RwLockMode.GLOBAL, "mpCacheDataSets");
  }

  /**
   * Neither a file's blocks added after its creation nor an append change its directory's
   * modification time: a directory's size counted while a file was being written, or before an
   * append, must not stay.
   */
  @Test
  void aDirectorysSizeFollowsBlocksAddedWithoutChangingIt() throws Exception {
    Configuration conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()) {
      DistributedFileSystem fs = cluster.getFileSystem();
      NameNodeNamespace namespace = new NameNodeNamespace(cluster.getNamesystem(), false,
          () -> new CachedPaths(List.of(), List.of()), BLOCK, new NamesystemHolds(
              cluster.getNamesystem(), NamesystemHolds.WORK_PER_HOLD, (wall, cpu) -> { }));
      DFSTestUtil.createFile(fs, new Path("/d/a"), BLOCK, (short) 1, 1);
      assertEquals(1, namespace.dataSetAt("/d").blocks());

      try (FSDataOutputStream written = fs.create(new Path("/d/b"))) {
        assertEquals(1, namespace.dataSetAt("/d").blocks(), "b has no block yet");
        written.write(new byte[2 * BLOCK]);
      }
      assertEquals(3, namespace.dataSetAt("/d").blocks(), "b's 2 blocks, added after its create");

      DFSTestUtil.appendFile(fs, new Path("/d/a"), BLOCK);
      List<LocatedBlock> blocksOfA = DFSTestUtil.getAllBlocks(fs, new Path("/d/a"));
      BlockOwner[] owners = namespace.ownersOf(new long[] {
          blocksOfA.get(0).getBlock().getBlockId(), blocksOfA.get(1).getBlock().getBlockId()});
      assertEquals(4, owners[1].dataSet().blocks(), "a's appended block");
      assertTrue(owners[0].startsFile(), "a's first block starts its file");
      assertFalse(owners[1].startsFile(), "the appended block does not");
    }
  }
}
