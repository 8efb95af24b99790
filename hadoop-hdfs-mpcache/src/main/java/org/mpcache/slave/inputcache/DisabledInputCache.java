package org.mpcache.slave.inputcache;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input cache of a DataNode whose mpCache settings are invalid: every read goes to the HDD
 * replica as in stock Hadoop, nothing is cached, and it says why (the metrics' State tag, the
 * admin tool).
 */
final class DisabledInputCache implements InputCache {
  private static final Logger LOG = LoggerFactory.getLogger(DisabledInputCache.class);

  private final String reason;
  private final ReplicaSource replicas;
  private final CacheCounter.Values counters = new CacheCounter.Values();

  DisabledInputCache(String reason, ReplicaSource replicas) {
    this.reason = reason;
    this.replicas = replicas;
    LOG.error("mpCache input cache is disabled, the DataNode serves every read from HDD: {}",
        reason);
  }

  @Override
  public boolean enabled() {
    return false;
  }

  @Override
  public String disabledReason() {
    return reason;
  }

  @Override
  public CacheCounter.Values counters() {
    return counters;
  }

  @Override
  public long usedBytes() {
    return 0;
  }

  @Override
  public long capacityBytes() {
    return 0;
  }

  @Override
  public long storeCapacityBytes() {
    return 0;
  }

  @Override
  public List<File> dirs() {
    return List.of();
  }

  @Override
  public long bytesIn(List<File> dirs) {
    return 0;
  }

  @Override
  public int fillsUnderWay() {
    return 0;
  }

  @Override
  public int cachedBlocks() {
    return 0;
  }

  @Override
  public List<String> failedDirs() {
    return List.of();
  }

  @Override
  public boolean takingInCopies() {
    return false;
  }

  @Override
  public boolean isCached(BlockKey key) {
    return false;
  }

  @Override
  public long lastScrubPassMillis() {
    return 0;
  }

  @Override
  public long masterHeartbeats() {
    return 0;
  }

  @Override
  public String arbiterState() {
    return "none (cache disabled)";
  }

  @Override
  public void limitInput(long bytes) {
  }

  @Override
  public boolean awaitUsedAtMost(long bytes, long millis) {
    return true;
  }

  @Override
  public void poolFigures(long freePool, long localized) {
  }

  @Override
  public LengthInputStream openMeta(ExtendedBlock block, ReadCaller caller) throws IOException {
    return replicas.openMeta(block);
  }

  @Override
  public InputStream openData(ExtendedBlock block, long offset, ReadCaller caller)
      throws IOException {
    return replicas.openData(block, offset);
  }

  @Override
  public BlockLocalPathInfo localPathInfo(ExtendedBlock block, BlockLocalPathInfo hddPaths) {
    return hddPaths;
  }

  @Override
  public void shortCircuitSlotRegistering(String blockPoolId, long blockId) {
  }

  @Override
  public void keptInMemory(String blockPoolId, long[] blockIds) {
  }

  @Override
  public void noLongerInMemory(String blockPoolId, long[] blockIds) {
  }

  @Override
  public void replicaChanging(String blockPoolId, long blockId) {
  }

  @Override
  public void replicaDeleting(String blockPoolId, long blockId) {
  }

  @Override
  public void replicaChanged(String blockPoolId, long blockId) {
  }

  @Override
  public void loadBlockPool(String blockPoolId) {
  }

  @Override
  public void removeBlockPool(String blockPoolId, boolean deleteFiles) {
  }

  @Override
  public void shutdown() {
  }
}
