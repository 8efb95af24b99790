package org.mpcache.slave.inputcache;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.LongSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.conf.SlaveSettings;
import org.mpcache.slave.masterlink.MasterArbiter;
import org.mpcache.slave.masterlink.SlaveIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's input cache (the paper's slave-side "Cache Master"), as the DataNode, the
 * Dynamic Space Tuner and the metrics see it: {@link SsdInputCache} on the configured SSD dirs,
 * or {@link DisabledInputCache}, which serves every read from the HDD and says why, when the
 * settings are invalid.
 */
public interface InputCache {
  /**
   * A cache for the settings, or a disabled one naming the bad setting. With a master configured
   * it arbitrates; a bad master setting leaves the slave deciding on its own.
   */
  static InputCache fromSettings(Configuration conf, ReplicaSource replicas,
      SlaveIdentity identity, FileIoProvider io, ShortCircuitSlots slots) {
    Logger log = LoggerFactory.getLogger(InputCache.class);
    SlaveSettings settings;
    try {
      settings = SlaveSettings.from(conf);
    } catch (InvalidSettingException e) {
      return new DisabledInputCache("invalid setting " + e.getMessage(), replicas);
    }
    MasterLinkSettings link;
    try {
      link = MasterLinkSettings.from(conf);
    } catch (InvalidSettingException e) {
      log.error("mpCache: no cache master, this slave decides on its own: invalid setting {}",
          e.getMessage());
      link = null;
    }
    MasterLinkSettings masterLink = link;
    return SsdInputCache.open(settings, replicas,
        capacity -> masterLink == null || !masterLink.hasMaster()
            ? new LocalArbiter(capacity)
            : new MasterArbiter(new LocalArbiter(capacity), masterLink, conf, identity), io,
        slots);
  }

  /** Makes the arbiter for a cache whose capacity (its healthy dirs') is given as it is now. */
  @FunctionalInterface
  interface CacheArbiterFactory {
    CacheArbiter create(LongSupplier capacityBytes);
  }

  // ---- State -------------------------------------------------------------------------------

  /** True while it serves reads from the SSD: the settings are good and some SSD dir in use. */
  boolean enabled();

  /** Why the cache is off, or null while it is on. */
  String disabledReason();

  default long counter(CacheCounter counter) {
    return counters().get(counter);
  }

  /** Its counters, for its metrics source. */
  CacheCounter.Values counters();

  long usedBytes();

  /** What input data may fill now: the store's capacity, or less when the tuner lent room. */
  long capacityBytes();

  /** The whole SSD cache of the healthy dirs, input and localized data together. */
  long storeCapacityBytes();

  /** The configured SSD dirs, in use or not. */
  List<File> dirs();

  /** Bytes of copies and fills under way in those of {@code dirs} in use. */
  long bytesIn(List<File> dirs);

  /** Fills staged and not yet committed or given up. */
  int fillsUnderWay();

  int cachedBlocks();

  /** The configured dirs that are out of use, with why. */
  List<String> failedDirs();

  /** True while a dir takes in the copies it holds (start-up, or back in use). */
  boolean takingInCopies();

  /** True when the block has a copy on the SSD that matches its replica. */
  boolean isCached(BlockKey key);

  /** How long the longest complete scrub of a dir took: rot stays unnoticed at most this long. */
  long lastScrubPassMillis();

  /** Heartbeats this slave sent to the cache master (0 without one). */
  long masterHeartbeats();

  /** Who decides what the SSD holds (the master, or this slave and why), for metrics. */
  String arbiterState();

  // ---- Room: the Dynamic Space Tuner -------------------------------------------------------

  /** The Dynamic Space Tuner sets what input data may fill. */
  void limitInput(long bytes);

  /** Waits until input data holds at most {@code bytes}; false when {@code millis} passed first. */
  boolean awaitUsedAtMost(long bytes, long millis) throws InterruptedException;

  /** The tuner's latest figures, reported to the master and the admin beside the input's. */
  void poolFigures(long freePool, long localized);

  // ---- Reads: the DataNode's dataset calls -------------------------------------------------

  /** {@code FsDatasetSpi#getMetaDataInputStream}. */
  LengthInputStream openMeta(ExtendedBlock block, ReadCaller caller) throws IOException;

  /** {@code FsDatasetSpi#getBlockInputStream}. */
  InputStream openData(ExtendedBlock block, long offset, ReadCaller caller) throws IOException;

  /** {@code FsDatasetSpi#getBlockLocalPathInfo}: legacy short-circuit readers. */
  BlockLocalPathInfo localPathInfo(ExtendedBlock block, BlockLocalPathInfo hddPaths);

  /** The DataNode is about to register a short-circuit slot for a request on this thread. */
  void shortCircuitSlotRegistering(String blockPoolId, long blockId);

  /** The DataNode was asked to keep these blocks in memory (HDFS centralized cache). */
  void keptInMemory(String blockPoolId, long[] blockIds);

  /** The DataNode no longer keeps these blocks in memory. */
  void noLongerInMemory(String blockPoolId, long[] blockIds);

  // ---- Replica changes ---------------------------------------------------------------------

  /** The block's replica is about to change its bytes or generation. */
  void replicaChanging(String blockPoolId, long blockId);

  /** The block's replica is about to be deleted. */
  void replicaDeleting(String blockPoolId, long blockId);

  /** The change begun by {@link #replicaChanging} or {@link #replicaDeleting} is over. */
  void replicaChanged(String blockPoolId, long blockId);

  // ---- Block pools and lifecycle ------------------------------------------------------------

  /** A block pool's replicas are loaded. */
  void loadBlockPool(String blockPoolId);

  /** Forgets a block pool's copies; {@code deleteFiles} when the pool itself is deleted. */
  void removeBlockPool(String blockPoolId, boolean deleteFiles);

  void shutdown();
}
