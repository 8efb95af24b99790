package org.mpcache.slave.inputcache;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.hdfs.protocol.BlockLocalPathInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;

/**
 * Routes the DataNode's reads: a block with a matching copy is served from the SSD, any other
 * from the HDD replica as stock Hadoop would, and a whole-block read from the HDD fills a copy on
 * the way. Only reads for clients are routed ({@link ReadCaller}); what the DataNode reads for
 * itself (block scanner, replication, balancer) always gets the HDD replica.
 *
 * <p>Short-circuit readers read the files they are given themselves, unchecked by the DataNode,
 * so they get a copy's files only after it was verified whole within
 * {@code dfs.mpcache.short-circuit.verify.max-age} and only for the generation they asked for.
 * File descriptors of a copy go only to a request that registered a shared-memory slot, through
 * which the copy can be revoked, and never for a block the DataNode keeps in memory (its slots
 * may become anchorable, and a client then reads without checksums). A legacy reader gets the
 * copy's data path with the HDD replica's own checksum path: stock renames that file whenever
 * the replica's generation changes, so the pair, which such readers cache by block id, can never
 * be opened for another generation.
 */
final class CacheReads {
  private final CopyIndex index;
  private final SsdStore store;
  private final ReplicaSource replicas;
  private final Fills fills;
  private final CopyReclaimer reclaimer;
  private final ShortCircuitSlots slots;
  private final CopyRead.Failures failures;
  private final CacheCounter.Values counters;
  private final HandoutVerifier verifier;
  private final ThreadLocal<PendingRead> pending = new ThreadLocal<>();
  /** The short-circuit request on this thread that is registering a slot. */
  private final ThreadLocal<SlotRequest> slotRequest = new ThreadLocal<>();
  /** Blocks the DataNode was asked to keep in memory (HDFS centralized cache). */
  private final Set<BlockKey> inMemory = ConcurrentHashMap.newKeySet();

  CacheReads(CopyIndex index, SsdStore store, ReplicaSource replicas, Fills fills,
      CopyReclaimer reclaimer, ShortCircuitSlots slots, CopyRead.Failures failures,
      CacheCounter.Values counters, HandoutVerifier verifier) {
    this.index = index;
    this.store = store;
    this.replicas = replicas;
    this.fills = fills;
    this.reclaimer = reclaimer;
    this.slots = slots;
    this.failures = failures;
    this.counters = counters;
    this.verifier = verifier;
  }

  /** {@code FsDatasetSpi#getMetaDataInputStream}: for a client read, the first of its two opens. */
  LengthInputStream openMeta(ExtendedBlock block, ReadCaller caller) throws IOException {
    BlockKey key = keyOf(block);
    slotRequest.remove();
    if (caller == ReadCaller.SHORT_CIRCUIT_FDS) {
      PendingRead read = takePending(key);
      if (read != null && read.handedOutMeta() != null) {
        return new LengthInputStream(read.handedOutMeta(), read.handedOutMetaLength());
      }
      return replicas.openMeta(block);
    }
    releasePending();
    LiveReplica replica = replicas.finalizedReplica(key);
    if (replica == null || !replica.cacheable(key)) {
      return replicas.openMeta(block);
    }
    CachedCopy copy = lookup(key, replica, block.getGenerationStamp());
    if (copy != null) {
      try {
        CopyRead hit = CopyRead.open(copy, store, failures, counters);
        pending.set(PendingRead.hit(key, replica, hit));
        return hit.metaView();
      } catch (IOException e) {
        // reported and dropped: a miss
      }
    }
    pending.set(PendingRead.miss(key, replica));
    return replicas.openMeta(block);
  }

  /** {@code FsDatasetSpi#getBlockInputStream}. */
  InputStream openData(ExtendedBlock block, long offset, ReadCaller caller) throws IOException {
    BlockKey key = keyOf(block);
    if (caller == ReadCaller.SHORT_CIRCUIT_FDS) {
      return openForShortCircuit(block, key, offset);
    }
    slotRequest.remove();
    PendingRead read = takePending(key);
    if (read != null && (read.handedOutMeta() != null
        || read.replica().generationStamp() != block.getGenerationStamp())) {
      read.release(); // left by an earlier request that failed between its opens
      read = null;
    }
    if (read == null) {
      // Not the cache's (checksums not requested, replica not finalized, or never cached).
      return replicas.openData(block, offset);
    }
    if (read.hit() != null) {
      counters.increment(CacheCounter.HITS);
      return read.hit().dataView(offset);
    }
    counters.increment(CacheCounter.MISSES);
    InputStream hdd = countedHdd(replicas.openData(block, offset));
    Fill fill = offset == 0 ? fills.startForReader(key, read.replica()) : null;
    return fill == null ? hdd : new FillingStream(hdd, fill);
  }

  /**
   * {@code FsDatasetSpi#getBlockLocalPathInfo}: a legacy short-circuit reader gets the copy's
   * paths. {@code hddPaths} is stock's answer: it checked the caller and the generation stamp,
   * and raised the block's to the replica's.
   */
  BlockLocalPathInfo localPathInfo(ExtendedBlock block, BlockLocalPathInfo hddPaths) {
    BlockKey key = keyOf(block);
    slotRequest.remove();
    LiveReplica replica = replicas.finalizedReplica(key);
    if (replica == null || !replica.cacheable(key)) {
      return hddPaths;
    }
    CachedCopy copy = verifiedForHandout(key, replica, block.getGenerationStamp(), true);
    if (copy != null) {
      recordShortCircuit(CacheCounter.HITS, CacheCounter.BYTES_FROM_SSD, replica);
      // The copy's checksums are the replica's own, byte for byte; the replica's file is the
      // one whose name changes with the generation.
      return new BlockLocalPathInfo(block, copy.dataFile().toString(), hddPaths.getMetaPath());
    }
    recordShortCircuit(CacheCounter.MISSES, CacheCounter.BYTES_FROM_HDD, replica);
    fills.startInBackground(key, replica);
    return hddPaths;
  }

  /**
   * The DataNode is about to register a shared-memory slot for a short-circuit request on this
   * thread: the copy it hands out next can be revoked through that slot, once registered.
   */
  void slotRegistering(BlockKey key) {
    slotRequest.set(new SlotRequest(key, slots.registeredSlots(key)));
  }

  /**
   * A request registering a slot for {@code key}, and the slots the block had before. The
   * registration may fail, or the request fail after it (the DataNode then unregisters the
   * slot), before the descriptors are asked for: a later request on the same connection must
   * not pass for this one, so the slot it added is looked for, not only the block.
   */
  private record SlotRequest(BlockKey key, Set<Object> slotsBefore) {
    boolean registeredFor(BlockKey asked, Set<Object> slotsNow) {
      return key.equals(asked) && !slotsBefore.containsAll(slotsNow);
    }
  }

  /**
   * The DataNode was asked to keep these blocks in memory: no copy's descriptors are handed out
   * for them from now on, and the slots of those handed out are revoked.
   */
  void keptInMemory(List<BlockKey> keys) {
    inMemory.addAll(keys);
    keys.forEach(slots::revoke);
  }

  void noLongerInMemory(List<BlockKey> keys) {
    inMemory.removeAll(keys);
  }

  private InputStream openForShortCircuit(ExtendedBlock block, BlockKey key, long offset)
      throws IOException {
    releasePending();
    SlotRequest request = slotRequest.get();
    slotRequest.remove();
    boolean revocable = request != null && !inMemory.contains(key)
        && request.registeredFor(key, slots.registeredSlots(key));
    LiveReplica replica = replicas.finalizedReplica(key);
    if (replica == null || offset != 0 || !replica.cacheable(key)) {
      return replicas.openData(block, offset);
    }
    CachedCopy copy = revocable
        ? verifiedForHandout(key, replica, block.getGenerationStamp(), false) : null;
    if (copy != null) {
      try {
        FileInputStream[] files = store.openStreams(copy);
        pending.set(PendingRead.handout(key, files[1], copy.metaLength()));
        recordShortCircuit(CacheCounter.HITS, CacheCounter.BYTES_FROM_SSD, replica);
        return files[0];
      } catch (IOException e) {
        failures.copyFailed(copy, "cannot be opened (" + e.getMessage() + ")", e);
      }
    }
    recordShortCircuit(CacheCounter.MISSES, CacheCounter.BYTES_FROM_HDD, replica);
    fills.startInBackground(key, replica);
    return replicas.openData(block, offset);
  }

  /**
   * The copy to hand to a short-circuit reader, which checks nothing the DataNode does not: it
   * is read and verified whole first unless that was done within the configured age, off this
   * thread ({@link HandoutVerifier}); null when it was not verified in time.
   */
  private CachedCopy verifiedForHandout(BlockKey key, LiveReplica replica, long generationStamp,
      boolean onIpcHandler) {
    CachedCopy copy = lookup(key, replica, generationStamp);
    return copy != null && verifier.verified(copy, onIpcHandler) ? copy : null;
  }

  private CachedCopy lookup(BlockKey key, LiveReplica replica, long generationStamp) {
    CopyIndex.Lookup found = index.lookup(key, replica, generationStamp);
    if (found.stale() != null) {
      reclaimer.reclaimNow(found.stale());
    }
    return found.hit();
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
      read.release();
      return null;
    }
    return read;
  }

  private void releasePending() {
    PendingRead read = pending.get();
    pending.remove();
    if (read != null) {
      read.release();
    }
  }

  private InputStream countedHdd(InputStream hdd) {
    return new CountingStream(hdd, counters, CacheCounter.BYTES_FROM_HDD);
  }

  static BlockKey keyOf(ExtendedBlock block) {
    return new BlockKey(block.getBlockPoolId(), block.getBlockId());
  }
}
