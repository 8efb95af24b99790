package org.mpcache.slave.inputcache;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_FILL_THREADS_KEY;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.mpcache.conf.SlaveSettings;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.mpcache.slave.masterlink.MasterArbiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input cache on the configured SSD dirs: serves each client read of a block from an SSD
 * copy or from the HDD replica, fills copies while readers stream blocks from the HDD, and drops
 * copies that no longer match their replica. It wires its parts together:
 *
 * <ul>
 *   <li>{@link CopyIndex}: which copies exist (the only locked state; no I/O under its lock),
 *   <li>{@link CacheReads}: read routing, remote and short-circuit, and
 *       {@link HandoutVerifier}: copies verified before a short-circuit hand-out,
 *   <li>{@link Fills}: provisional copies and asynchronous admission,
 *   <li>{@link CopyReclaimer}: revoking and deleting copies that left the index,
 *   <li>{@link DirHealth} and {@link CopyAdoption}: dirs out of and back into use,
 *   <li>{@link Scrubber}: verifying every copy at a bounded rate,
 *   <li>{@link SsdStore}: the files, every call through the DataNode's {@code FileIoProvider}.
 * </ul>
 *
 * <p>Safety rules (docs/architecture.md): a copy is served only while the live replica has the
 * generation stamp and length it was made from; a remote read's bytes are verified before they
 * leave the DataNode; a short-circuit reader gets a copy only after it was verified whole, and
 * its slot is revoked when the copy leaves; every SSD problem is contained here and never
 * reported in a way the DataNode would take for a bad HDD replica.
 */
public final class SsdInputCache implements InputCache, ArbitratedCache {
  private static final Logger LOG = LoggerFactory.getLogger(SsdInputCache.class);

  private final CacheCounter.Values counters = new CacheCounter.Values();
  private final ReplicaSource replicas;
  private final SsdStore store;
  private final CacheArbiter arbiter;
  private final CopyIndex index;
  private final CopyReclaimer reclaimer;
  private final CopyAdoption adoption;
  private final DirHealth health;
  private final Fills fills;
  private final CacheReads reads;
  private final HandoutVerifier verifier;
  private final Scrubber scrubber;
  private final long ioTimeoutMillis;
  private volatile long freePoolBytes;
  private volatile long localizedBytes;

  private SsdInputCache(SlaveSettings settings, ReplicaSource replicas, SsdStore store,
      CacheArbiter arbiter, ShortCircuitSlots slots) {
    this.ioTimeoutMillis = settings.ioTimeoutMillis();
    this.replicas = replicas;
    this.store = store;
    this.arbiter = arbiter;
    this.index = new CopyIndex(store.dirs(), arbiter, counters);
    this.adoption = new CopyAdoption(store, index, replicas, counters);
    this.health = new DirHealth(store, index, this::stranded, adoption, counters,
        settings.dirCheckMillis(), settings.ioTimeoutMillis());
    this.reclaimer = new CopyReclaimer(store, slots, health, settings.ioTimeoutMillis());
    this.fills = new Fills(index, store, replicas, arbiter, reclaimer, health, counters,
        settings.fillThreads(), settings.fillQueue(), settings.admissionWaitMillis(),
        settings.ioTimeoutMillis());
    this.verifier = new HandoutVerifier(store, this::dropBroken, counters,
        settings.handoutMaxAgeMillis(), settings.ioTimeoutMillis(), settings.handoutWaiters());
    this.reads = new CacheReads(index, store, replicas, fills, reclaimer, slots,
        this::dropBroken, counters, verifier);
    this.scrubber = new Scrubber(index, store, replicas, reclaimer, this::dropBroken, counters,
        settings.scrubBytesPerSecond());
  }

  /**
   * Opens the cache on the configured SSD dirs. A dir that cannot be used is left out, saying
   * why; with none the cache is off (every read goes to the HDD as in stock Hadoop) until one
   * passes its check.
   */
  public static SsdInputCache open(SlaveSettings settings, ReplicaSource replicas,
      CacheArbiterFactory arbiters, FileIoProvider io, ShortCircuitSlots slots) {
    SsdStore store = SsdStore.open(settings.dirs(), settings.capacityBytes(), io,
        settings.dirPermission(), settings.ioTimeoutMillis());
    LongSupplier capacity = () -> CacheDir.capacityOf(store.dirs());
    LOG.info("mpCache input cache on {} with {} bytes of capacity", store.dirs(),
        capacity.getAsLong());
    SsdInputCache cache = new SsdInputCache(settings, replicas, store, arbiters.create(capacity),
        slots);
    cache.health.start();
    cache.scrubber.start();
    if (cache.arbiter instanceof MasterArbiter master) {
      master.start(cache);
    }
    if (!cache.enabled()) {
      LOG.error("mpCache input cache is disabled until an SSD dir passes its check: {}",
          cache.disabledReason());
    }
    return cache;
  }

  // ---- State -------------------------------------------------------------------------------

  /** True while some SSD dir is in use. */
  @Override
  public boolean enabled() {
    return store.dirs().stream().anyMatch(CacheDir::healthy);
  }

  @Override
  public String disabledReason() {
    return enabled() ? null : "no SSD dir of " + DFS_MPCACHE_DIRS_KEY + " is in use: "
        + String.join("; ", failedDirs());
  }

  /** Its counters, for its metrics source. */
  @Override
  public CacheCounter.Values counters() {
    return counters;
  }

  @Override
  public long usedBytes() {
    return index.usedBytes();
  }

  /** What input data may fill now: the store's capacity, or less when the tuner lent room. */
  @Override
  public long capacityBytes() {
    return index.capacityBytes();
  }

  /** The whole SSD cache of the healthy dirs, input and localized data together. */
  @Override
  public long storeCapacityBytes() {
    return index.storeCapacityBytes();
  }

  /** The configured SSD dirs, in use or not. */
  @Override
  public List<File> dirs() {
    return store.dirs().stream().map(CacheDir::configured).toList();
  }

  /** Bytes of copies and fills under way in those of {@code dirs} in use. */
  @Override
  public long bytesIn(List<File> dirs) {
    return dirs.isEmpty() ? 0 : index.bytesIn(dirs);
  }

  /** Fills staged and not yet committed or given up. */
  @Override
  public int fillsUnderWay() {
    return index.fillsUnderWay();
  }

  @Override
  public int cachedBlocks() {
    return index.cachedBlocks();
  }

  /** The configured dirs that are out of use, with why. */
  @Override
  public List<String> failedDirs() {
    List<String> failed = new ArrayList<>();
    for (CacheDir dir : store.dirs()) {
      if (!dir.healthy()) {
        failed.add(dir + ": " + dir.failure());
      }
    }
    return failed;
  }

  /**
   * True while a dir takes in the copies it holds (start-up, or back in use); no fill goes to
   * it meanwhile, so that new copies do not crowd out warm ones.
   */
  @Override
  public boolean takingInCopies() {
    return store.dirs().stream().anyMatch(CacheDir::adopting);
  }

  /** True when the block has a copy on the SSD that matches its replica. */
  @Override
  public boolean isCached(BlockKey key) {
    CachedCopy copy = index.copyOf(key);
    return copy != null && copy.matches(replicas.finalizedReplica(key));
  }

  /** How long the longest complete scrub of a dir took: rot stays unnoticed at most this long. */
  @Override
  public long lastScrubPassMillis() {
    return scrubber.lastPassMillis();
  }

  /** Heartbeats this slave sent to the cache master (0 without one). */
  @Override
  public long masterHeartbeats() {
    return arbiter instanceof MasterArbiter master ? master.heartbeatsSent() : 0;
  }

  CacheArbiter arbiter() {
    return arbiter;
  }

  /** Who decides what the SSD holds (the master, or this slave and why), for metrics. */
  @Override
  public String arbiterState() {
    return arbiter.describe();
  }

  @Override
  public SlaveUsage usage() {
    return new SlaveUsage(capacityBytes(), usedBytes(), freePoolBytes, localizedBytes,
        counter(CacheCounter.HITS), counter(CacheCounter.MISSES), cachedBlocks(),
        enabled() ? "ok" : disabledReason(), counter(CacheCounter.BYTES_FROM_SSD),
        counter(CacheCounter.BYTES_FROM_HDD));
  }

  // ---- Room: the Dynamic Space Tuner and the master ----------------------------------------

  /**
   * The Dynamic Space Tuner sets what input data may fill. When that falls under what input data
   * holds, copies go: at once when this slave decides alone (LRU); through the master's scheme
   * otherwise, on one heartbeat hastened for it.
   */
  @Override
  public void limitInput(long bytes) {
    if (index.limitInput(bytes)) {
      trimToLimit(arbiter::shrinkVictims);
    }
  }

  /** Waits until input data holds at most {@code bytes}; false when {@code millis} passed first. */
  @Override
  public boolean awaitUsedAtMost(long bytes, long millis) throws InterruptedException {
    return index.awaitUsedAtMost(bytes, millis);
  }

  @Override
  public void trimToLimit(LongFunction<List<BlockKey>> victims) {
    reclaimer.reclaim(index.trimToLimit(victims));
  }

  /** The tuner's latest figures, reported to the master and the admin beside the input's. */
  @Override
  public void poolFigures(long freePool, long localized) {
    this.freePoolBytes = freePool;
    this.localizedBytes = localized;
  }

  @Override
  public void evict(String blockPoolId, long[] blockIds) {
    reclaimer.reclaim(index.evict(keys(blockPoolId, blockIds)));
  }

  @Override
  public void load(String blockPoolId, long[] blockIds) {
    if (!fills.copiesInBackground()) {
      LOG.warn("mpCache: the master asked to load {} blocks, but background fills are off ({}"
          + " is 0)", blockIds.length, DFS_MPCACHE_FILL_THREADS_KEY);
      return;
    }
    for (BlockKey key : keys(blockPoolId, blockIds)) {
      LiveReplica replica = replicas.finalizedReplica(key);
      if (replica != null) {
        fills.startInBackground(key, replica);
      }
    }
  }

  // ---- Reads -------------------------------------------------------------------------------

  /**
   * {@code FsDatasetSpi#getMetaDataInputStream}. For descriptors, the second open: it keeps the
   * first's decision ({@link #openData}), even if the cache turned off in between.
   */
  @Override
  public LengthInputStream openMeta(ExtendedBlock block, ReadCaller caller) throws IOException {
    boolean secondOpen = caller == ReadCaller.SHORT_CIRCUIT_FDS;
    return secondOpen || routed(caller) ? reads.openMeta(block, caller)
        : replicas.openMeta(block);
  }

  /**
   * {@code FsDatasetSpi#getBlockInputStream}. The second open of a read keeps the first's
   * decision, even if the cache turned off in between: its checksums were handed out already.
   */
  @Override
  public InputStream openData(ExtendedBlock block, long offset, ReadCaller caller)
      throws IOException {
    return caller != ReadCaller.OTHER ? reads.openData(block, offset, caller)
        : replicas.openData(block, offset);
  }

  /** {@code FsDatasetSpi#getBlockLocalPathInfo}: legacy short-circuit readers get SSD paths. */
  @Override
  public BlockLocalPathInfo localPathInfo(ExtendedBlock block, BlockLocalPathInfo hddPaths) {
    return enabled() ? reads.localPathInfo(block, hddPaths) : hddPaths;
  }

  /**
   * The DataNode is about to register a short-circuit slot for a request on this thread
   * ({@code DataXceiver#requestShortCircuitFds}): the copy handed out next can be revoked.
   */
  @Override
  public void shortCircuitSlotRegistering(String blockPoolId, long blockId) {
    if (enabled()) {
      reads.slotRegistering(new BlockKey(blockPoolId, blockId));
    }
  }

  private boolean routed(ReadCaller caller) {
    return caller != ReadCaller.OTHER && enabled();
  }

  /** The DataNode was asked to keep these blocks in memory (HDFS centralized cache). */
  @Override
  public void keptInMemory(String blockPoolId, long[] blockIds) {
    reads.keptInMemory(keys(blockPoolId, blockIds));
  }

  /** The DataNode no longer keeps these blocks in memory. */
  @Override
  public void noLongerInMemory(String blockPoolId, long[] blockIds) {
    reads.noLongerInMemory(keys(blockPoolId, blockIds));
  }

  private static List<BlockKey> keys(String blockPoolId, long[] blockIds) {
    List<BlockKey> keys = new ArrayList<>(blockIds.length);
    for (long blockId : blockIds) {
      keys.add(new BlockKey(blockPoolId, blockId));
    }
    return keys;
  }

  /** A copy failed a read or a check: it is dropped, and its dir checked after an I/O error. */
  private void dropBroken(CachedCopy copy, String why, IOException ioError) {
    LOG.warn("mpCache: dropping {}: {}; reads go to the HDD replica", copy, why);
    if (index.removeIfHeld(copy, CacheCounter.CORRUPT_DROPPED)) {
      reclaimer.reclaimNow(copy);
    }
    if (ioError != null) {
      health.suspect(copy.dir(), ioError);
    }
  }


  /** The copies of a dir that failed (their files left on it). */
  private void stranded(List<CachedCopy> copies) {
    reclaimer.strand(copies);
  }

  // ---- Replica changes ---------------------------------------------------------------------

  /**
   * The block's replica is about to change its bytes or generation (append, recovery,
   * truncate, a newer replica replacing it): from now until {@link #replicaChanged} no copy of
   * it is served or made, and its copy is revoked and deleted before this returns, so that no
   * local reader can open the old copy for the new replica.
   */
  @Override
  public void replicaChanging(String blockPoolId, long blockId) {
    BlockKey key = new BlockKey(blockPoolId, blockId);
    reclaimer.reclaimBeforeChange(key, index.beginChange(key));
  }

  /** The block's replica is about to be deleted: its copy goes too, without waiting. */
  @Override
  public void replicaDeleting(String blockPoolId, long blockId) {
    CachedCopy copy = index.beginChange(new BlockKey(blockPoolId, blockId));
    if (copy != null) {
      reclaimer.reclaim(List.of(copy));
    }
  }

  /** The change begun by {@link #replicaChanging} or {@link #replicaDeleting} is over. */
  @Override
  public void replicaChanged(String blockPoolId, long blockId) {
    index.endChange(new BlockKey(blockPoolId, blockId));
  }

  // ---- Block pools and lifecycle ------------------------------------------------------------

  /**
   * Takes in the copies a previous run left for a block pool whose replicas are now loaded
   * (in the background, on each dir's lane): those that still match their replica are served
   * without refilling, the others are deleted.
   */
  @Override
  public void loadBlockPool(String blockPoolId) {
    adoption.addPool(blockPoolId);
  }

  /** Forgets a block pool's copies; {@code deleteFiles} when the pool itself is deleted. */
  @Override
  public void removeBlockPool(String blockPoolId, boolean deleteFiles) {
    adoption.removePool(blockPoolId);
    List<CachedCopy> removed = index.removePool(blockPoolId);
    if (deleteFiles) {
      reclaimer.reclaim(removed);
    } else {
      reclaimer.revoke(removed);
    }
  }

  @Override
  public void shutdown() {
    if (arbiter instanceof MasterArbiter master) {
      master.stop();
    }
    scrubber.close();
    verifier.close();
    health.close();
    fills.close();
    reclaimer.close();
    store.close(ioTimeoutMillis, reclaimer::deleting);
    LOG.info("mpCache input cache stopped; {}", store.dirs().stream()
        .map(dir -> dir + " holds " + dir.usedBytes() + " bytes")
        .collect(Collectors.joining(", ")));
  }
}
