package org.mpcache.slave;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_FILL_QUEUE_KEY;

import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.conf.SlaveSettings;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.store.CacheDir;
import org.mpcache.slave.store.CachedCopy;
import org.mpcache.slave.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's input cache (the paper's slave-side "Cache Master"): decides for each block read
 * whether it is served from an SSD copy or from the HDD replica, fills copies while a reader
 * streams a block from the HDD, and drops copies that no longer match their replica.
 *
 * <p>Safety rules: a copy is served only while the live replica has the generation stamp and
 * length the copy was made from; every SSD problem is contained here (the copy is dropped, the read
 * goes to the HDD) and is never reported in a way the DataNode would take for a bad HDD replica.
 *
 * <p>The index and the store are guarded by this object's monitor; file data is read and written
 * outside it, and so is the arbiter's admission (it may ask the master over RPC). Lock order: this
 * monitor, then the arbiter's, then the dataset's locks (through {@link ReplicaSource}); the
 * dataset never calls in while holding its locks.
 */
public final class InputCache implements ArbitratedCache {
  private static final Logger LOG = LoggerFactory.getLogger(InputCache.class);
  /** Checksum files above this (blocks over ~512 MB) are left to stock Hadoop and not cached. */
  private static final long MAX_META_IN_MEMORY = 4L << 20;
  /** Fills writing at once (one writer thread each); more concurrent misses are not cached. */
  private static final int MAX_CONCURRENT_FILLS = 16;

  private final ReplicaSource replicas;
  private final SsdStore store;
  private final CacheArbiter arbiter;
  private final ThreadPoolExecutor backgroundFills;
  private final ThreadPoolExecutor ssdWriters;
  private final CacheCounter.Values counters = new CacheCounter.Values();
  private final Map<BlockKey, CachedCopy> copies = new HashMap<>();
  private final Set<BlockKey> filling = new HashSet<>();
  private final ThreadLocal<PendingRead> pending = new ThreadLocal<>();
  private volatile String disabledReason;
  /** What the Dynamic Space Tuner leaves input data; the whole store without localized data. */
  private long inputLimitBytes = Long.MAX_VALUE;
  private volatile long freePoolBytes;
  private volatile long localizedBytes;

  private InputCache(ReplicaSource replicas, SsdStore store, CacheArbiter arbiter,
      ThreadPoolExecutor backgroundFills, String disabledReason) {
    this.replicas = replicas;
    this.store = store;
    this.arbiter = arbiter;
    this.backgroundFills = backgroundFills;
    this.disabledReason = disabledReason;
    this.ssdWriters = new ThreadPoolExecutor(0, MAX_CONCURRENT_FILLS, 60, TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-ssd-writer-%d").build());
  }

  /**
   * Opens the cache on the configured SSD dirs. A bad setting or no usable dir leaves the cache
   * disabled (every read goes to the HDD as in stock Hadoop) with the reason logged and exposed.
   */
  public static InputCache open(SlaveSettings settings, ReplicaSource replicas,
      CacheArbiterFactory arbiters, FileIoProvider io) {
    SsdStore store = SsdStore.open(settings, io);
    if (!store.anyHealthy()) {
      return disabled("no usable SSD dir in " + DFS_MPCACHE_DIRS_KEY + " (see the errors above)",
          replicas, store);
    }
    ThreadPoolExecutor executor = null;
    if (settings.fillThreads() > 0) {
      executor = new ThreadPoolExecutor(settings.fillThreads(), settings.fillThreads(), 60,
          TimeUnit.SECONDS, new ArrayBlockingQueue<>(Math.max(1, settings.fillQueue())),
          new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-fill-%d").build());
      executor.allowCoreThreadTimeOut(true);
    }
    LOG.info("mpCache input cache on {} with {} bytes of capacity", store.dirs(),
        store.capacityBytes());
    InputCache cache = new InputCache(replicas, store, arbiters.create(store.capacityBytes()),
        executor, null);
    if (cache.arbiter instanceof MasterArbiter master) {
      master.start(cache);
    }
    return cache;
  }

  /** Makes the arbiter for a cache of the given capacity. */
  @FunctionalInterface
  public interface CacheArbiterFactory {
    CacheArbiter create(long capacityBytes);
  }

  /** A cache that serves everything from the HDD and says why ({@code store} may be null). */
  private static InputCache disabled(String reason, ReplicaSource replicas, SsdStore store) {
    LOG.error("mpCache input cache is disabled, the DataNode serves every read from HDD: {}",
        reason);
    return new InputCache(replicas, store, null, null, reason);
  }

  /**
   * A cache for the settings, or a disabled one naming the bad setting. With a master configured
   * it arbitrates; a bad master setting leaves the slave deciding on its own.
   */
  public static InputCache fromSettings(Configuration conf, ReplicaSource replicas,
      SlaveIdentity identity, FileIoProvider io) {
    SlaveSettings settings;
    try {
      settings = SlaveSettings.from(conf);
    } catch (InvalidSettingException e) {
      return disabled("invalid setting " + e.getMessage(), replicas, null);
    }
    MasterLinkSettings link;
    try {
      link = MasterLinkSettings.from(conf);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: no cache master, this slave decides on its own: invalid setting {}",
          e.getMessage());
      link = null;
    }
    MasterLinkSettings masterLink = link;
    return open(settings, replicas, capacity -> masterLink == null || !masterLink.hasMaster()
        ? new LocalArbiter(capacity)
        : new MasterArbiter(new LocalArbiter(capacity), masterLink, conf, identity), io);
  }

  public boolean enabled() {
    return disabledReason == null;
  }

  /** Why the cache is off, or null while it is on. */
  public String disabledReason() {
    return disabledReason;
  }

  public long counter(CacheCounter counter) {
    return counters.get(counter);
  }

  public synchronized long usedBytes() {
    return store == null ? 0 : store.usedBytes();
  }

  /** What input data may fill now: the store's capacity, or less when the tuner lent room. */
  public synchronized long capacityBytes() {
    return Math.min(storeCapacityBytes(), inputLimitBytes);
  }

  /** The whole SSD cache of the healthy dirs, input and localized data together. */
  public synchronized long storeCapacityBytes() {
    return store == null ? 0 : store.capacityBytes();
  }

  /**
   * The Dynamic Space Tuner sets what input data may fill. Copies above it go: at once when
   * this slave decides alone (LRU), through the master's scheme on its next heartbeat otherwise.
   */
  public synchronized void limitInput(long bytes) {
    inputLimitBytes = bytes;
    if (enabled()) {
      trimToLimit(arbiter::shrinkVictims);
    }
  }

  @Override
  public synchronized void trimToLimit(LongFunction<List<BlockKey>> victims) {
    long excess = usedBytes() - capacityBytes();
    if (excess > 0) {
      for (BlockKey victim : victims.apply(excess)) {
        CachedCopy copy = copies.get(victim);
        if (copy != null) {
          removeCopy(copy, CacheCounter.EVICTIONS);
        }
      }
    }
  }

  /** The tuner's latest figures, reported to the master and the admin beside the input's. */
  public void poolFigures(long freePool, long localized) {
    this.freePoolBytes = freePool;
    this.localizedBytes = localized;
  }

  public synchronized int cachedBlocks() {
    return copies.size();
  }

  /** The configured dirs that are out of use, with why. */
  public synchronized List<String> failedDirs() {
    List<String> failed = new ArrayList<>();
    if (store != null) {
      for (CacheDir dir : store.dirs()) {
        if (!dir.healthy()) {
          failed.add(dir + ": " + dir.failure());
        }
      }
    }
    return failed;
  }

  CacheArbiter arbiter() {
    return arbiter;
  }

  /** Who decides what the SSD holds (the master, or this slave and why), for metrics. */
  public String arbiterState() {
    return arbiter == null ? "none (cache disabled)" : arbiter.describe();
  }

  @Override
  public synchronized SlaveUsage usage() {
    return new SlaveUsage(capacityBytes(), usedBytes(), freePoolBytes, localizedBytes,
        counter(CacheCounter.HITS),
        counter(CacheCounter.MISSES), copies.size(), enabled() ? "ok" : disabledReason);
  }

  @Override
  public synchronized void evict(String blockPoolId, long[] blockIds) {
    for (long blockId : blockIds) {
      CachedCopy copy = copies.get(new BlockKey(blockPoolId, blockId));
      if (copy != null) {
        removeCopy(copy, CacheCounter.EVICTIONS);
      }
    }
  }

  /** True when the block has a copy on the SSD that matches its replica. */
  public synchronized boolean isCached(BlockKey key) {
    CachedCopy copy = copies.get(key);
    return copy != null && copy.matches(replicas.finalizedReplica(key));
  }

  // ---- Reads -------------------------------------------------------------------------------

  /** {@code FsDatasetSpi#getMetaDataInputStream}: for a client read, the first of its two opens. */
  public LengthInputStream openMeta(ExtendedBlock block, ReadCaller caller) throws IOException {
    if (!enabled() || caller == ReadCaller.OTHER) {
      return replicas.openMeta(block);
    }
    BlockKey key = keyOf(block);
    if (caller == ReadCaller.SHORT_CIRCUIT_FDS) {
      PendingRead read = takePending(key);
      if (read != null && read.copyMeta() != null) {
        return new LengthInputStream(read.copyMeta(), read.copy().metaLength());
      }
      return replicas.openMeta(block);
    }
    pending.remove();
    LiveReplica replica = replicas.finalizedReplica(key);
    if (replica == null) {
      return replicas.openMeta(block);
    }
    CachedCopy copy = lookup(key, replica);
    if (copy != null) {
      try {
        BlockChecksums checksums = copyChecksums(copy);
        pending.set(new PendingRead(key, replica, copy, checksums, null));
        return checksums.newStream();
      } catch (IOException e) {
        dropBroken(copy, "checksum file is unusable: " + e.getMessage(), e);
      }
    }
    byte[] meta = hddMeta(block);
    if (meta == null) {
      return replicas.openMeta(block); // none, or too large to cache: stock behaviour
    }
    BlockChecksums checksums = null;
    try {
      checksums = BlockChecksums.parse(meta, replica.length());
    } catch (IOException e) {
      LOG.debug("mpCache: not caching {}: {}", key, e.getMessage());
    }
    pending.set(new PendingRead(key, replica, null, checksums, null));
    return new LengthInputStream(new ByteArrayInputStream(meta), meta.length);
  }

  /** {@code FsDatasetSpi#getBlockInputStream}. */
  public InputStream openData(ExtendedBlock block, long offset, ReadCaller caller)
      throws IOException {
    if (!enabled() || caller == ReadCaller.OTHER) {
      return replicas.openData(block, offset);
    }
    BlockKey key = keyOf(block);
    if (caller == ReadCaller.SHORT_CIRCUIT_FDS) {
      return openForShortCircuit(block, key, offset);
    }
    PendingRead read = takePending(key);
    if (read == null) {
      // Checksums were not requested (or the replica is not finalized): nothing to pair with.
      return countedHdd(replicas.openData(block, offset));
    }
    if (read.copy() != null) {
      CachedCopy copy = read.copy();
      try {
        VerifiedCopyStream stream = new VerifiedCopyStream(copy, read.checksums(), offset, this);
        counters.increment(CacheCounter.HITS);
        return stream;
      } catch (IOException e) {
        dropBroken(copy, "data file cannot be opened: " + e.getMessage(), e);
        return hddDataForCopyChecksums(block, offset, read.checksums());
      }
    }
    counters.increment(CacheCounter.MISSES);
    InputStream hdd = replicas.openData(block, offset);
    Fill fill = offset == 0 && read.checksums() != null
        ? startFill(key, read.replica(), read.checksums()) : null;
    return fill == null ? countedHdd(hdd) : new FillingStream(countedHdd(hdd), fill);
  }

  /**
   * The copy's data could not be opened after its checksums were handed out (it was evicted or
   * its dir failed in between). The HDD data may follow those checksums only if they are the
   * replica's own, byte for byte; otherwise the read fails plainly and the client's retry is
   * served from the HDD, rather than sending data with checksums it does not match.
   */
  private InputStream hddDataForCopyChecksums(ExtendedBlock block, long offset,
      BlockChecksums handedOut) throws IOException {
    if (!Arrays.equals(hddMeta(block), handedOut.bytes())) {
      throw new IOException("mpCache: the SSD copy of " + block + " went away during the read"
          + " and its checksums differ from the replica's; the block will be read from HDD");
    }
    counters.increment(CacheCounter.MISSES);
    return countedHdd(replicas.openData(block, offset));
  }

  /** {@code FsDatasetSpi#getBlockLocalPathInfo}: legacy short-circuit readers get SSD paths. */
  public BlockLocalPathInfo localPathInfo(ExtendedBlock block, BlockLocalPathInfo hddPaths) {
    if (!enabled()) {
      return hddPaths;
    }
    BlockKey key = keyOf(block);
    LiveReplica replica = replicas.finalizedReplica(key);
    if (replica == null) {
      return hddPaths;
    }
    CachedCopy copy = verifiedCopy(key, replica);
    if (copy != null) {
      recordShortCircuit(CacheCounter.HITS, CacheCounter.BYTES_FROM_SSD, replica);
      return new BlockLocalPathInfo(block, copy.dataFile().toString(),
          copy.metaFile().toString());
    }
    recordShortCircuit(CacheCounter.MISSES, CacheCounter.BYTES_FROM_HDD, replica);
    fillInBackground(key, replica);
    return hddPaths;
  }

  private InputStream openForShortCircuit(ExtendedBlock block, BlockKey key, long offset)
      throws IOException {
    pending.remove();
    LiveReplica replica = replicas.finalizedReplica(key);
    CachedCopy copy = replica == null || offset != 0 ? null : verifiedCopy(key, replica);
    if (copy != null) {
      FileInputStream data = null;
      try {
        data = store.openStream(copy.dataFile());
        FileInputStream meta = store.openStream(copy.metaFile());
        pending.set(new PendingRead(key, replica, copy, null, meta));
        recordShortCircuit(CacheCounter.HITS, CacheCounter.BYTES_FROM_SSD, replica);
        return data;
      } catch (IOException e) {
        IOUtils.closeStream(data);
        dropBroken(copy, "cannot be opened: " + e.getMessage(), e);
      }
    }
    if (replica != null) {
      recordShortCircuit(CacheCounter.MISSES, CacheCounter.BYTES_FROM_HDD, replica);
      fillInBackground(key, replica);
    }
    return replicas.openData(block, offset);
  }

  /** A short-circuit reader reads the files itself: the whole block is counted at hand-out. */
  private void recordShortCircuit(CacheCounter event, CacheCounter bytes, LiveReplica replica) {
    counters.increment(event);
    counters.add(bytes, replica.length());
  }

  private PendingRead takePending(BlockKey key) {
    PendingRead read = pending.get();
    pending.remove();
    if (read != null && !read.key().equals(key)) {
      IOUtils.closeStream(read.copyMeta());
      return null;
    }
    return read;
  }

  private InputStream countedHdd(InputStream hdd) {
    return new CountingStream(hdd, counters, CacheCounter.BYTES_FROM_HDD);
  }

  /** The copy to serve for this replica, or null; a stale copy is discarded on the way. */
  private synchronized CachedCopy lookup(BlockKey key, LiveReplica replica) {
    CachedCopy copy = copies.get(key);
    if (copy == null) {
      return null;
    }
    if (!copy.matches(replica)) {
      LOG.info("mpCache: discarding {}: the replica is now {}", copy, replica);
      removeCopy(copy, CacheCounter.STALE_DISCARDED);
      return null;
    }
    arbiter.onHit(key);
    return copy;
  }

  /**
   * The copy to hand to a short-circuit reader, which checks nothing the DataNode does not: a
   * copy not verified since it was loaded at start-up is read and verified whole first.
   */
  private CachedCopy verifiedCopy(BlockKey key, LiveReplica replica) {
    CachedCopy copy = lookup(key, replica);
    if (copy == null || copy.verified()) {
      return copy;
    }
    try (VerifiedCopyStream stream =
        new VerifiedCopyStream(copy, copyChecksums(copy), 0, this)) {
      stream.verifyToEnd();
      return copy;
    } catch (IOException e) {
      dropBroken(copy, "failed verification before a short-circuit hand-out: " + e.getMessage(),
          e);
      return null;
    }
  }

  private BlockChecksums copyChecksums(CachedCopy copy) throws IOException {
    try (InputStream meta = store.openStream(copy.metaFile())) {
      return BlockChecksums.parse(meta.readAllBytes(), copy.length());
    }
  }

  /** The replica's checksum file in memory; null when it has none or it is too large to cache. */
  private byte[] hddMeta(ExtendedBlock block) throws IOException {
    try (LengthInputStream in = replicas.openMeta(block)) {
      if (in == null || in.getLength() > MAX_META_IN_MEMORY) {
        return null;
      }
      byte[] meta = new byte[(int) in.getLength()];
      IOUtils.readFully(in, meta, 0, meta.length);
      return meta;
    }
  }

  void addServed(CacheCounter bytesCounter, long bytes) {
    counters.add(bytesCounter, bytes);
  }

  // ---- Fills -------------------------------------------------------------------------------

  /** Admits the block and reserves its room, or returns null when it is not to be cached now. */
  private Fill startFill(BlockKey key, LiveReplica replica, BlockChecksums checksums) {
    long bytes = replica.length() + checksums.bytes().length;
    long freeBytes;
    synchronized (this) {
      if (!enabled() || filling.contains(key) || copies.containsKey(key)) {
        return null;
      }
      filling.add(key);
      freeBytes = Math.min(store.freeBytes(), capacityBytes() - usedBytes());
    }
    Admission admission = arbiter.requestAdmission(key, bytes, freeBytes);
    CacheDir dir;
    synchronized (this) {
      if (!admission.admitted()) {
        filling.remove(key);
        return null;
      }
      if (!enabled()) {
        release(key, null, 0);
        return null;
      }
      for (BlockKey victim : admission.victims()) {
        CachedCopy copy = copies.get(victim);
        if (copy != null) {
          removeCopy(copy, CacheCounter.EVICTIONS);
        }
      }
      dir = usedBytes() + bytes > capacityBytes() ? null : store.reserve(bytes);
      if (dir == null) {
        release(key, null, 0);
        return null;
      }
    }
    Fill fill;
    try {
      fill = new Fill(key, replica, checksums, dir, bytes,
          store.tmpFiles(dir, key, replica.generationStamp()), this);
    } catch (IOException e) {
      release(key, dir, bytes);
      onSsdError(dir, e);
      return null;
    }
    try {
      ssdWriters.execute(fill);
      return fill;
    } catch (RejectedExecutionException e) {
      LOG.debug("mpCache: {} fills under way already, not caching {}", MAX_CONCURRENT_FILLS, key);
      release(key, dir, bytes, fill.tmpData(), fill.tmpMeta());
      return null;
    }
  }

  /** A fill that will not become a copy: its room and files go, and the arbiter is told. */
  private synchronized void release(BlockKey key, CacheDir dir, long bytes, Path... tmpFiles) {
    filling.remove(key);
    if (dir != null) {
      store.abandon(dir, bytes, tmpFiles);
    }
    arbiter.onRemoved(key);
  }

  /** Queues a copy made by a background thread, for readers that read the replica files themselves. */
  private void fillInBackground(BlockKey key, LiveReplica replica) {
    if (backgroundFills == null) {
      return;
    }
    synchronized (this) {
      if (filling.contains(key) || copies.containsKey(key)) {
        return;
      }
    }
    try {
      backgroundFills.execute(() -> fillFromHdd(key, replica));
    } catch (RejectedExecutionException e) {
      counters.increment(CacheCounter.BACKGROUND_FILLS_DROPPED);
      LOG.debug("mpCache: background fill queue full ({}), not filling {}",
          DFS_MPCACHE_FILL_QUEUE_KEY, key);
    }
  }

  private void fillFromHdd(BlockKey key, LiveReplica replica) {
    ExtendedBlock block = new ExtendedBlock(key.blockPoolId(), key.blockId(), replica.length(),
        replica.generationStamp());
    Fill fill;
    try {
      byte[] meta = hddMeta(block);
      if (meta == null) {
        return;
      }
      fill = startFill(key, replica, BlockChecksums.parse(meta, replica.length()));
    } catch (IOException e) {
      LOG.debug("mpCache: not filling {} in the background: {}", key, e.toString());
      return;
    }
    if (fill == null) {
      return;
    }
    try (InputStream data = replicas.openData(block, 0)) {
      byte[] buffer = new byte[64 << 10];
      for (int n; (n = data.read(buffer)) > 0;) {
        fill.accept(buffer, 0, n, true);
      }
      fill.finish(true);
    } catch (IOException | RuntimeException e) {
      fill.abort("background copy failed: " + e, false);
    }
  }

  /** Makes a verified fill a served copy, if its replica is still the one it was copied from. */
  void commit(Fill fill) {
    IOException ssdError = null;
    synchronized (this) {
      filling.remove(fill.key());
      if (enabled() && fill.dir().healthy()
          && fill.replica().equals(replicas.finalizedReplica(fill.key()))) {
        try {
          CachedCopy copy = store.commit(fill.dir(), fill.key(), fill.replica().generationStamp(),
              fill.replica().length(), fill.reservedBytes(), fill.tmpData(), fill.tmpMeta());
          copies.put(fill.key(), copy);
          arbiter.onCached(fill.key(), copy.bytes());
          counters.increment(CacheCounter.FILLS);
          return;
        } catch (IOException e) {
          LOG.warn("mpCache: could not commit the copy of {} in {}: {}", fill.key(), fill.dir(),
              e.toString());
          ssdError = e;
        }
      } else {
        LOG.debug("mpCache: {} changed while it was copied; dropping the copy", fill.key());
      }
      store.abandon(fill.dir(), fill.reservedBytes(), fill.tmpData(), fill.tmpMeta());
      arbiter.onRemoved(fill.key());
      counters.increment(CacheCounter.FILLS_ABORTED);
    }
    if (ssdError != null) {
      onSsdError(fill.dir(), ssdError);
    }
  }

  /** The data of a copy, opened for the verified reads of {@link VerifiedCopyStream}. */
  RandomAccessFile openCopyData(CachedCopy copy) throws IOException {
    return store.openForReading(copy.dataFile());
  }

  /** A file for a fill to write its copy's data or checksums into. */
  OutputStream createCopyFile(Path file) throws IOException {
    return store.create(file);
  }

  /**
   * Gives up a fill (its writer calls this once); the reader it was riding on is not affected.
   * {@code ssdError}: the SSD failed, check its dir. {@code retryInBackground}: the SSD could not
   * keep up with the reader, copy the block in the background instead.
   */
  void abandon(Fill fill, String why, IOException ssdError, boolean retryInBackground) {
    LOG.debug("mpCache: fill of {} abandoned: {}", fill.key(), why);
    release(fill.key(), fill.dir(), fill.reservedBytes(), fill.tmpData(), fill.tmpMeta());
    counters.increment(CacheCounter.FILLS_ABORTED);
    if (ssdError != null) {
      onSsdError(fill.dir(), ssdError);
    }
    if (retryInBackground) {
      fillInBackground(fill.key(), fill.replica());
    }
  }

  // ---- Removal -----------------------------------------------------------------------------

  /**
   * A copy failed verification ({@code ioError} null) or could not be read: drop it; after an I/O
   * error its dir is checked and taken out of use if it no longer works.
   */
  void dropBroken(CachedCopy copy, String why, IOException ioError) {
    LOG.warn("mpCache: dropping {}: {}; reads go to the HDD replica", copy, why);
    synchronized (this) {
      if (copies.get(copy.key()) == copy) {
        removeCopy(copy, CacheCounter.CORRUPT_DROPPED);
      }
    }
    if (ioError != null) {
      onSsdError(copy.dir(), ioError);
    }
  }

  /** The replica changed or went away (delete, append, recovery, truncate). */
  public synchronized void invalidate(String blockPoolId, long blockId) {
    CachedCopy copy = copies.get(new BlockKey(blockPoolId, blockId));
    if (copy != null) {
      removeCopy(copy, CacheCounter.INVALIDATIONS);
    }
  }

  private void removeCopy(CachedCopy copy, CacheCounter reason) {
    copies.remove(copy.key());
    store.delete(copy);
    arbiter.onRemoved(copy.key());
    counters.increment(reason);
  }

  /** After an SSD I/O error: a dir that no longer works is taken out of use with its copies. */
  private void onSsdError(CacheDir dir, IOException cause) {
    synchronized (this) {
      if (!store.failIfBroken(dir, cause)) {
        return;
      }
      copies.values().removeIf(copy -> {
        if (copy.dir() == dir) {
          arbiter.onRemoved(copy.key());
          return true;
        }
        return false;
      });
      if (!store.anyHealthy()) {
        disabledReason = "every SSD dir of " + DFS_MPCACHE_DIRS_KEY + " failed; last: " + dir
            + ": " + dir.failure();
        LOG.error("mpCache input cache is disabled, the DataNode serves every read from HDD: {}",
            disabledReason);
      }
    }
  }

  // ---- Block pools and lifecycle ------------------------------------------------------------

  /**
   * Takes in the copies a previous run left for a block pool whose replicas are now loaded: those
   * that still match their replica are served without refilling, the others are deleted.
   */
  public synchronized void loadBlockPool(String blockPoolId) {
    if (!enabled()) {
      return;
    }
    int kept = 0;
    int discarded = 0;
    for (CachedCopy copy : store.scan(blockPoolId)) {
      if (copy.matches(replicas.finalizedReplica(copy.key())) && !copies.containsKey(copy.key())) {
        copies.put(copy.key(), copy);
        arbiter.onCached(copy.key(), copy.bytes());
        kept++;
      } else {
        store.delete(copy);
        counters.increment(CacheCounter.STALE_DISCARDED);
        discarded++;
      }
    }
    LOG.info("mpCache: block pool {}: {} cached copies kept, {} stale copies discarded",
        blockPoolId, kept, discarded);
  }

  /** Forgets a block pool's copies; {@code deleteFiles} when the pool itself is deleted. */
  public synchronized void removeBlockPool(String blockPoolId, boolean deleteFiles) {
    if (!enabled()) {
      return;
    }
    for (CachedCopy copy : List.copyOf(copies.values())) {
      if (copy.key().blockPoolId().equals(blockPoolId)) {
        if (deleteFiles) {
          removeCopy(copy, CacheCounter.INVALIDATIONS);
        } else {
          copies.remove(copy.key());
          arbiter.onRemoved(copy.key());
        }
      }
    }
  }

  public void shutdown() {
    if (arbiter instanceof MasterArbiter master) {
      master.stop();
    }
    if (backgroundFills != null) {
      backgroundFills.shutdownNow();
    }
    ssdWriters.shutdownNow();
  }

  private static BlockKey keyOf(ExtendedBlock block) {
    return new BlockKey(block.getBlockPoolId(), block.getBlockId());
  }
}
