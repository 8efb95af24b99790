package org.apache.hadoop.hdfs.server.datanode.fsdataset.impl;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.Replica;
import org.apache.hadoop.hdfs.server.datanode.ReplicaHandler;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand.RecoveringBlock;
import org.apache.hadoop.hdfs.server.protocol.ReplicaRecoveryInfo;
import org.mpcache.slave.BlockKey;
import org.mpcache.slave.InputCache;
import org.mpcache.slave.LiveReplica;
import org.mpcache.slave.ReadCaller;
import org.mpcache.slave.ReplicaSource;
import org.mpcache.slave.SlaveIdentity;
import org.mpcache.slave.SlaveMetrics;
import org.mpcache.slave.SpaceTuner;

/**
 * The stock dataset with the mpCache input cache in front of its reads. It lives in this package
 * because {@link FsDatasetImpl}'s constructor is package-private. Everything here is glue: reads
 * are routed through {@link InputCache}, and every operation that changes a finalized replica
 * tells the cache after the stock code has run (never while holding the dataset's locks).
 */
public class MpCacheFsDataset extends FsDatasetImpl {
  private final InputCache cache;
  /** Null when intermediate data stays on the HDDs. */
  private final SpaceTuner tuner;
  private final SlaveMetrics metrics;

  MpCacheFsDataset(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    super(datanode, storage, conf);
    this.cache = InputCache.fromSettings(conf, new HddReplicas(),
        new SlaveIdentity(datanode.getDatanodeUuid(), datanode::getDisplayName),
        datanode.getFileIoProvider());
    this.tuner = SpaceTuner.fromSettings(conf, cache);
    this.metrics = SlaveMetrics.register(datanode.getDatanodeUuid(), cache, tuner);
  }

  /** The input cache, for tests and tools in the DataNode's JVM. */
  public InputCache getInputCache() {
    return cache;
  }

  /** The Dynamic Space Tuner, or null when intermediate data stays on the HDDs. */
  public SpaceTuner getSpaceTuner() {
    return tuner;
  }

  /** The stock replicas: what the cache falls back to and copies from. */
  private final class HddReplicas implements ReplicaSource {
    @Override
    public LiveReplica finalizedReplica(BlockKey key) {
      ReplicaInfo replica = volumeMap.get(key.blockPoolId(), key.blockId());
      if (replica == null || replica.getState() != ReplicaState.FINALIZED) {
        return null;
      }
      return new LiveReplica(replica.getGenerationStamp(), replica.getNumBytes());
    }

    @Override
    public InputStream openData(ExtendedBlock block, long offset) throws IOException {
      return MpCacheFsDataset.super.getBlockInputStream(block, offset);
    }

    @Override
    public LengthInputStream openMeta(ExtendedBlock block) throws IOException {
      return MpCacheFsDataset.super.getMetaDataInputStream(block);
    }
  }

  @Override
  public LengthInputStream getMetaDataInputStream(ExtendedBlock b) throws IOException {
    return cache.openMeta(b, ReadCaller.current());
  }

  @Override
  public InputStream getBlockInputStream(ExtendedBlock b, long seekOffset) throws IOException {
    return cache.openData(b, seekOffset, ReadCaller.current());
  }

  @Override
  public BlockLocalPathInfo getBlockLocalPathInfo(ExtendedBlock block) throws IOException {
    return cache.localPathInfo(block, super.getBlockLocalPathInfo(block));
  }

  @Override
  public void invalidate(String bpid, Block[] invalidBlks) throws IOException {
    try {
      super.invalidate(bpid, invalidBlks);
    } finally {
      for (Block block : invalidBlks) {
        cache.invalidate(bpid, block.getBlockId());
      }
    }
  }

  @Override
  public ReplicaHandler append(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return thenForget(b, () -> super.append(b, newGS, expectedBlockLen));
  }

  @Override
  public ReplicaHandler recoverAppend(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return thenForget(b, () -> super.recoverAppend(b, newGS, expectedBlockLen));
  }

  @Override
  public Replica recoverClose(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return thenForget(b, () -> super.recoverClose(b, newGS, expectedBlockLen));
  }

  @Override
  public ReplicaRecoveryInfo initReplicaRecovery(RecoveringBlock rBlock) throws IOException {
    return thenForget(rBlock.getBlock(), () -> super.initReplicaRecovery(rBlock));
  }

  @Override
  public Replica updateReplicaUnderRecovery(ExtendedBlock oldBlock, long recoveryId,
      long newBlockId, long newLength) throws IOException {
    return thenForget(oldBlock,
        () -> super.updateReplicaUnderRecovery(oldBlock, recoveryId, newBlockId, newLength));
  }

  /** A stock operation that changes the block's replica. */
  @FunctionalInterface
  private interface ReplicaChange<T> {
    T run() throws IOException;
  }

  /**
   * Runs the stock operation, then (whether it succeeded or not) makes sure the block's copy, if
   * any, is never served again: the replica may have changed either way.
   */
  private <T> T thenForget(ExtendedBlock block, ReplicaChange<T> change) throws IOException {
    try {
      return change.run();
    } finally {
      cache.invalidate(block.getBlockPoolId(), block.getBlockId());
    }
  }

  @Override
  public void addBlockPool(String bpid, Configuration conf) throws IOException {
    super.addBlockPool(bpid, conf);
    cache.loadBlockPool(bpid);
  }

  @Override
  public void shutdownBlockPool(String bpid) {
    super.shutdownBlockPool(bpid);
    cache.removeBlockPool(bpid, false);
  }

  @Override
  public void deleteBlockPool(String bpid, boolean force) throws IOException {
    super.deleteBlockPool(bpid, force);
    cache.removeBlockPool(bpid, true);
  }

  @Override
  public void shutdown() {
    try {
      if (tuner != null) {
        tuner.close();
      }
      cache.shutdown();
      metrics.unregister();
    } finally {
      super.shutdown();
    }
  }
}
