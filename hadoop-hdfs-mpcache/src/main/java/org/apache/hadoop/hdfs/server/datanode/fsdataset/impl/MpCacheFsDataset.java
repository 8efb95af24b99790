package org.apache.hadoop.hdfs.server.datanode.fsdataset.impl;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.ExtendedBlockId;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.Replica;
import org.apache.hadoop.hdfs.server.datanode.ReplicaHandler;
import org.apache.hadoop.hdfs.server.datanode.ReplicaInfo;
import org.apache.hadoop.hdfs.server.datanode.ShortCircuitRegistry;
import org.apache.hadoop.hdfs.server.datanode.SlaveProofs;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi.ScanInfo;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand.RecoveringBlock;
import org.apache.hadoop.hdfs.server.protocol.ReplicaRecoveryInfo;
import org.mpcache.slave.SlaveMetrics;
import org.mpcache.slave.inputcache.BlockKey;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.slave.inputcache.LiveReplica;
import org.mpcache.slave.inputcache.ReadCaller;
import org.mpcache.slave.inputcache.ReplicaSource;
import org.mpcache.slave.inputcache.ShortCircuitSlots;
import org.mpcache.slave.masterlink.SlaveIdentity;
import org.mpcache.slave.spacetuner.SpaceTuner;

/**
 * The stock dataset with the mpCache input cache in front of its reads. It lives in this package
 * because {@link FsDatasetImpl}'s constructor is package-private. Everything here is glue: reads
 * are routed through {@link InputCache}, and every operation that changes or replaces a
 * finalized replica is bracketed by the cache's {@code replicaChanging} (or
 * {@code replicaDeleting}) and {@code replicaChanged}, whether the stock code succeeds or not.
 * The brackets never wait while the dataset's locks are held: the stock methods take them inside.
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
        new SlaveIdentity(datanode.getDatanodeUuid(), datanode::getDisplayName,
            () -> SlaveProofs.of(datanode)),
        datanode.getFileIoProvider(), new RegistrySlots(datanode));
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
      StorageType storage = replica.getVolume() == null ? null
          : replica.getVolume().getStorageType();
      return new LiveReplica(replica.getGenerationStamp(), replica.getNumBytes(), storage);
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

  /** Local readers' slots, through the DataNode's short-circuit registry. */
  private record RegistrySlots(DataNode datanode) implements ShortCircuitSlots {
    @Override
    public void revoke(BlockKey key) {
      ShortCircuitRegistry registry = datanode.getShortCircuitRegistry();
      if (registry != null) {
        registry.processBlockInvalidation(id(key));
      }
    }

    @Override
    public Set<Object> registeredSlots(BlockKey key) {
      Set<Object> slots = Collections.newSetFromMap(new IdentityHashMap<>());
      ShortCircuitRegistry registry = datanode.getShortCircuitRegistry();
      if (registry != null) {
        registry.visit((segments, registered) -> slots.addAll(registered.get(id(key))));
      }
      return slots;
    }

    private static ExtendedBlockId id(BlockKey key) {
      return new ExtendedBlockId(key.blockId(), key.blockPoolId());
    }
  }

  // ---- Reads -------------------------------------------------------------------------------

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

  /**
   * {@code DataXceiver.requestShortCircuitFds} asks this only for a request that registers a
   * shared-memory slot, right before it asks for the block's descriptors on the same thread. A
   * slot of a block held in memory is anchorable (its reader may skip checksums): never a copy's.
   */
  @Override
  public boolean isCached(String bpid, long blockId) {
    boolean inMemory = super.isCached(bpid, blockId);
    if (!inMemory && ReadCaller.current() == ReadCaller.SHORT_CIRCUIT_SLOT) {
      cache.shortCircuitSlotRegistering(bpid, blockId);
    }
    return inMemory;
  }

  /** HDFS centralized caching: readers of blocks held in memory may skip checksums. */
  @Override
  public void cache(String bpid, long[] blockIds) {
    cache.keptInMemory(bpid, blockIds);
    super.cache(bpid, blockIds);
  }

  @Override
  public void uncache(String bpid, long[] blockIds) {
    super.uncache(bpid, blockIds);
    cache.noLongerInMemory(bpid, blockIds);
  }

  // ---- Replica changes ---------------------------------------------------------------------

  @Override
  public ReplicaHandler append(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return changing(b.getBlockPoolId(), b.getBlockId(),
        () -> super.append(b, newGS, expectedBlockLen));
  }

  @Override
  public ReplicaHandler recoverAppend(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return changing(b.getBlockPoolId(), b.getBlockId(),
        () -> super.recoverAppend(b, newGS, expectedBlockLen));
  }

  @Override
  public Replica recoverClose(ExtendedBlock b, long newGS, long expectedBlockLen)
      throws IOException {
    return changing(b.getBlockPoolId(), b.getBlockId(),
        () -> super.recoverClose(b, newGS, expectedBlockLen));
  }

  @Override
  public ReplicaRecoveryInfo initReplicaRecovery(RecoveringBlock rBlock) throws IOException {
    ExtendedBlock b = rBlock.getBlock();
    return changing(b.getBlockPoolId(), b.getBlockId(), () -> super.initReplicaRecovery(rBlock));
  }

  @Override
  public Replica updateReplicaUnderRecovery(ExtendedBlock oldBlock, long recoveryId,
      long newBlockId, long newLength) throws IOException {
    return changing(oldBlock.getBlockPoolId(), oldBlock.getBlockId(),
        () -> super.updateReplicaUnderRecovery(oldBlock, recoveryId, newBlockId, newLength));
  }

  /** A newer replica arriving replaces an older finalized one (it is invalidated inside). */
  @Override
  public ReplicaHandler createTemporary(StorageType storageType, String storageId,
      ExtendedBlock b, boolean isTransfer) throws IOException {
    return changing(b.getBlockPoolId(), b.getBlockId(),
        () -> super.createTemporary(storageType, storageId, b, isTransfer));
  }

  /** The directory scanner makes the in-memory replica match the files on disk. */
  @Override
  public void checkAndUpdate(String bpid, ScanInfo scanInfo) throws IOException {
    changing(bpid, scanInfo.getBlockId(), () -> {
      super.checkAndUpdate(bpid, scanInfo);
      return null;
    });
  }

  @Override
  public void invalidate(String bpid, Block[] invalidBlks) throws IOException {
    for (Block block : invalidBlks) {
      cache.replicaDeleting(bpid, block.getBlockId());
    }
    try {
      super.invalidate(bpid, invalidBlks);
    } finally {
      for (Block block : invalidBlks) {
        cache.replicaChanged(bpid, block.getBlockId());
      }
    }
  }

  /** Called by the stock dataset under its locks: the cache does not wait here. */
  @Override
  public void invalidate(String bpid, ReplicaInfo block) {
    cache.replicaDeleting(bpid, block.getBlockId());
    try {
      super.invalidate(bpid, block);
    } finally {
      cache.replicaChanged(bpid, block.getBlockId());
    }
  }

  /**
   * Where an invalidated replica really leaves the dataset (the stock {@code invalidate} only
   * queues its deletion): a copy made meanwhile goes too. Package-private in the stock dataset;
   * the override keeps its signature (a change would not compile).
   */
  @Override
  boolean removeReplicaFromMem(ExtendedBlock block, FsVolumeImpl volume) {
    cache.replicaDeleting(block.getBlockPoolId(), block.getBlockId());
    try {
      return super.removeReplicaFromMem(block, volume);
    } finally {
      cache.replicaChanged(block.getBlockPoolId(), block.getBlockId());
    }
  }

  /** Called by the stock dataset and BlockSender; the cache does not wait here. */
  @Override
  public void invalidateMissingBlock(String bpid, Block block, boolean checkFiles) {
    cache.replicaDeleting(bpid, block.getBlockId());
    try {
      super.invalidateMissingBlock(bpid, block, checkFiles);
    } finally {
      cache.replicaChanged(bpid, block.getBlockId());
    }
  }

  /** A stock operation that changes or replaces a block's replica. */
  @FunctionalInterface
  private interface ReplicaChange<T> {
    T run() throws IOException;
  }

  /**
   * Runs the stock operation between the cache's brackets: no copy of the block is served or
   * made meanwhile, and its copy is gone (revoked and deleted) before the replica changes.
   */
  private <T> T changing(String bpid, long blockId, ReplicaChange<T> change) throws IOException {
    cache.replicaChanging(bpid, blockId);
    try {
      return change.run();
    } finally {
      cache.replicaChanged(bpid, blockId);
    }
  }

  // ---- Block pools and lifecycle ------------------------------------------------------------

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
