package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.File;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.StorageLocation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ways FsDatasetImpl takes a replica out of the dataset other than a client's delete, each
 * reached through a method MpCacheFsDataset overrides (docs/architecture.md, Hadoop internals):
 * whichever way a replica leaves, its SSD copy leaves with it. A Hadoop release that stopped
 * calling one of them would fail here, not serve a copy of a replica that is gone.
 */
@Timeout(180)
class TestReplicaRemovalPaths {
  private CacheTestCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = CacheTestCluster.start("removal", CacheTestCluster.conf(), 1, null);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** A one-block file whose block has its SSD copy. */
  private record Cached(LocatedBlock block, File copy) {
  }

  private Cached cachedFile(String name, long seed) throws Exception {
    Path file = new Path(name);
    cluster.writeCached(file, BLOCK_SIZE, seed);
    LocatedBlock block = cluster.blocks(file).get(0);
    return new Cached(block, cluster.copyDataFile(block));
  }

  private void waitGone(LocatedBlock block, File copy) throws Exception {
    GenericTestUtils.waitFor(() -> !copy.exists() && !cluster.isCached(block), 50, 30_000,
        "the SSD copy of " + block.getBlock() + " to be gone");
  }

  /**
   * FsDatasetImpl.invalidateMissingBlock: a replica whose files are gone (found by a read or the
   * directory scanner).
   */
  @Test
  void aReplicaFoundMissingTakesItsCopyWithIt() throws Exception {
    Cached cached = cachedFile("/missing", 13);
    LocatedBlock block = cached.block();
    assertTrue(cluster.mini().getBlockFile(0, block.getBlock()).delete());
    assertTrue(cluster.mini().getBlockMetadataFile(0, block.getBlock()).delete());
    cluster.holder(block).getFSDataset().invalidateMissingBlock(
        block.getBlock().getBlockPoolId(), block.getBlock().getLocalBlock());
    waitGone(block, cached.copy());
  }

  /** FsDatasetImpl.invalidate(String, ReplicaInfo): a volume taken out of a running DataNode. */
  @Test
  void aVolumeTakenOutTakesItsReplicasCopiesWithIt() throws Exception {
    Cached cached = cachedFile("/hot-swap", 19);
    LocatedBlock block = cached.block();
    DataNode dataNode = cluster.holder(block);
    StorageLocation holding = dataNode.getFSDataset().getVolume(block.getBlock())
        .getStorageLocation();
    String dirs = dataNode.getConf().get(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY);
    String kept = Arrays.stream(dirs.split(",")).map(String::trim)
        .filter(dir -> !sameLocation(dir, holding)).collect(Collectors.joining(","));
    assertFalse(kept.equals(dirs) || kept.isEmpty(), "another volume is left: " + dirs);
    dataNode.reconfigureProperty(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY, kept);
    waitGone(block, cached.copy());
  }

  private static boolean sameLocation(String dir, StorageLocation location) {
    try {
      return StorageLocation.parse(dir).getUri().equals(location.getUri());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(dir, e);
    }
  }
}
