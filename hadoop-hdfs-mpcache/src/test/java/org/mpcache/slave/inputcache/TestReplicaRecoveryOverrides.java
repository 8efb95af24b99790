package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNodeFaultInjector;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi.ScanInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The replica changes of {@code FsDatasetImpl} that come from recovery, the directory scanner and
 * the asynchronous deletion of an invalidated replica (held back with Hadoop's own
 * {@code DataNodeFaultInjector}), each made on a replica whose copy is on the SSD: the copy must be
 * gone after each, or a reader could get the old bytes for the changed replica. Each failure
 * names the Hadoop internal whose override no longer sees the change (docs/architecture.md,
 * "Hadoop internals").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class TestReplicaRecoveryOverrides {
  private CacheTestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    cluster = CacheTestCluster.start("recovery-overrides", CacheTestCluster.conf(), 1, null);
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private MpCacheFsDataset dataset() {
    return (MpCacheFsDataset) cluster.mini().getDataNodes().get(0).getFSDataset();
  }

  /** A change the DataNode makes to a replica. */
  @FunctionalInterface
  private interface ReplicaChange {
    void make(ExtendedBlock block) throws Exception;
  }

  /**
   * Makes {@code change} to the replica of a one-block file whose copy is on the SSD, then checks
   * that the copy is not merely refused as stale at its next read (its generation no longer
   * matches) but left the SSD as the change began, so no short-circuit reader keeps reading it.
   */
  private void assertDropsTheCopy(String internal, ReplicaChange change) throws Exception {
    Path file = new Path("/recovery/" + internal);
    cluster.writeCached(file, CacheTestCluster.BLOCK_SIZE, internal.hashCode());
    ExtendedBlock block = DFSTestUtil.getFirstBlock(cluster.fs(), file);
    BlockKey key = new BlockKey(block.getBlockPoolId(), block.getBlockId());
    assertTrue(cluster.cache(0).isCached(key), "a copy to begin with");
    int copies = cluster.cache(0).cachedBlocks();
    change.make(block);
    assertFalse(cluster.cache(0).isCached(key));
    assertEquals(copies - 1, cluster.cache(0).cachedBlocks(), "the copy outlived"
        + " FsDatasetImpl." + internal + ": its override in MpCacheFsDataset no longer sees the"
        + " change");
  }

  @Test
  void recoverCloseDropsTheCopy() throws Exception {
    assertDropsTheCopy("recoverClose", block -> dataset().recoverClose(block,
        block.getGenerationStamp() + 1, block.getNumBytes()));
  }

  @Test
  void recoverAppendDropsTheCopy() throws Exception {
    assertDropsTheCopy("recoverAppend", block -> dataset().recoverAppend(block,
        block.getGenerationStamp() + 1, block.getNumBytes()).close());
  }

  /** The replica it replaces also passes through {@code invalidate}, overridden as well. */
  @Test
  void createTemporaryForANewerTransferDropsTheCopy() throws Exception {
    assertDropsTheCopy("createTemporary", block -> {
      FsVolumeSpi volume = dataset().getVolume(block);
      dataset().createTemporary(volume.getStorageType(), volume.getStorageID(),
          new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), block.getNumBytes(),
              block.getGenerationStamp() + 1), true).close();
    });
  }

  @Test
  void checkAndUpdateOfAReplicaGoneFromDiskDropsTheCopy() throws Exception {
    assertDropsTheCopy("checkAndUpdate", block -> {
      FsVolumeSpi volume = dataset().getVolume(block);
      File data = cluster.mini().getBlockFile(0, block);
      File meta = cluster.mini().getBlockMetadataFile(0, block);
      assertTrue(data.delete() && meta.delete(), "the replica's files removed under the"
          + " DataNode");
      // What the directory scanner reports for a block whose files it no longer finds.
      dataset().checkAndUpdate(block.getBlockPoolId(),
          new ScanInfo(block.getBlockId(), null, null, null, volume));
    });
  }

  @Test
  void aCopyFilledWhileTheReplicasDeletionWaitsGoesWithIt() throws Exception {
    Path file = new Path("/recovery/removeReplicaFromMem");
    cluster.write(file, CacheTestCluster.BLOCK_SIZE, 11);
    ExtendedBlock block = DFSTestUtil.getFirstBlock(cluster.fs(), file);
    BlockKey key = new BlockKey(block.getBlockPoolId(), block.getBlockId());
    CountDownLatch deletionWaits = new CountDownLatch(1);
    CountDownLatch deletionMayGoOn = new CountDownLatch(1);
    DataNodeFaultInjector stock = DataNodeFaultInjector.get();
    // Hadoop's own hook into its asynchronous deletion, before removeReplicaFromMem.
    DataNodeFaultInjector.set(new DataNodeFaultInjector() {
      @Override
      public void delayDeleteReplica() {
        deletionWaits.countDown();
        try {
          deletionMayGoOn.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    try {
      dataset().invalidate(block.getBlockPoolId(), new Block[] {block.getLocalBlock()});
      deletionWaits.await();
      // The replica is still in memory: a client's read of it (checksums, then data, as a
      // BlockSender opens them) fills a copy meanwhile.
      cluster.cache(0).openMeta(block, ReadCaller.CLIENT_READ).close();
      try (InputStream in = cluster.cache(0).openData(block, 0, ReadCaller.CLIENT_READ)) {
        in.readAllBytes();
      }
      GenericTestUtils.waitFor(() -> cluster.cache(0).isCached(key), 20, 10_000,
          "a copy of the replica whose deletion waits");
      int copies = cluster.cache(0).cachedBlocks();
      deletionMayGoOn.countDown();
      GenericTestUtils.waitFor(() -> cluster.cache(0).cachedBlocks() == copies - 1, 20, 10_000,
          "the copy outlived FsDatasetImpl.removeReplicaFromMem: its override in"
              + " MpCacheFsDataset no longer sees the deletion");
    } finally {
      deletionMayGoOn.countDown();
      DataNodeFaultInjector.set(stock);
    }
  }
}
