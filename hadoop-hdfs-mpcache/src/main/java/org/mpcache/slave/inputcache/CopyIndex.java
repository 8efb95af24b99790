package org.mpcache.slave.inputcache;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;

/**
 * The index of the SSD copies: which blocks have a copy, which are being filled, whose replicas
 * are changing, and what each dir holds. It is the only state the input cache locks, and it does
 * no I/O: its methods decide and hand back the copies that left it, whose files the caller then
 * reclaims outside the lock. The arbiter hears of every change under this lock, in order.
 *
 * <p>Lock order: this index, then the arbiter's lock. Nothing here calls the dataset.
 */
final class CopyIndex {
  /** What a lookup found: the copy to serve, or none and perhaps a stale copy it removed. */
  record Lookup(CachedCopy hit, CachedCopy stale) {
  }

  /** What became of a copy offered to the index. */
  enum Offer {
    /** In the index and served from now on. */
    TAKEN,
    /** A replica changed since the caller checked it: check again and offer again. */
    RECHECK,
    /** Not taken (replica changing, dir out of use, no room): delete its files. */
    REFUSED,
    /** Not taken, and its files are another copy's or a failed dir's: leave them. */
    LEFT
  }

  /**
   * A fill under way: its dir and the bytes it holds there until committed or given up; admitted
   * once the arbiter said so.
   */
  static final class Staging {
    private final CacheDir dir;
    private final long bytes;
    private boolean admitted; // guarded by the index

    Staging(CacheDir dir, long bytes) {
      this.dir = dir;
      this.bytes = bytes;
    }

    CacheDir dir() {
      return dir;
    }

    long bytes() {
      return bytes;
    }
  }

  private final List<CacheDir> dirs;
  private final CacheArbiter arbiter;
  private final CacheCounter.Values counters;
  private final Map<BlockKey, CachedCopy> copies = new HashMap<>();
  private final Map<BlockKey, Staging> filling = new HashMap<>();
  private final Map<BlockKey, Integer> changing = new HashMap<>();
  /** Counts replica changes begun and ended, so a caller can tell none happened meanwhile. */
  private long changes;
  /** What the Dynamic Space Tuner leaves input data; the whole store without localized data. */
  private long inputLimitBytes = Long.MAX_VALUE;

  CopyIndex(List<CacheDir> dirs, CacheArbiter arbiter, CacheCounter.Values counters) {
    this.dirs = dirs;
    this.arbiter = arbiter;
    this.counters = counters;
  }

  // ---- Reads -------------------------------------------------------------------------------

  /**
   * The copy to serve for a read of {@code replica} asked for at {@code generationStamp}: one
   * that matches the replica, whose replica is not changing. A copy that no longer matches is
   * removed on the way.
   */
  synchronized Lookup lookup(BlockKey key, LiveReplica replica, long generationStamp) {
    CachedCopy copy = copies.get(key);
    if (copy == null || changing.containsKey(key)) {
      return new Lookup(null, null);
    }
    if (!copy.matches(replica)) {
      remove(copy, CacheCounter.STALE_DISCARDED);
      return new Lookup(null, copy);
    }
    if (copy.generationStamp() != generationStamp) {
      return new Lookup(null, null); // the reader asked for another generation: stock decides
    }
    arbiter.onHit(key);
    return new Lookup(copy, null);
  }

  synchronized boolean isCached(BlockKey key) {
    return copies.containsKey(key);
  }

  synchronized CachedCopy copyOf(BlockKey key) {
    return copies.get(key);
  }

  /** Every copy, the longest unverified first. */
  synchronized List<CachedCopy> byVerification() {
    List<CachedCopy> all = new ArrayList<>(copies.values());
    all.sort(Comparator.comparingLong(CachedCopy::verifiedAt));
    return all;
  }

  synchronized int cachedBlocks() {
    return copies.size();
  }

  // ---- Room --------------------------------------------------------------------------------

  /** What input data may fill now: the healthy dirs' quotas, or less when the tuner lent room. */
  synchronized long capacityBytes() {
    return Math.min(storeCapacityBytes(), inputLimitBytes);
  }

  /** The whole SSD cache of the healthy dirs, input and localized data together. */
  synchronized long storeCapacityBytes() {
    return CacheDir.capacityOf(dirs);
  }

  /** Bytes of copies and fills under way in those of {@code dirs} in use. */
  synchronized long bytesIn(List<File> configured) {
    return dirs.stream().filter(dir -> dir.healthy() && configured.contains(dir.configured()))
        .mapToLong(dir -> dir.usedBytes() + dir.stagedBytes()).sum();
  }

  synchronized long usedBytes() {
    return dirs.stream().filter(CacheDir::healthy).mapToLong(CacheDir::usedBytes).sum();
  }

  /**
   * Room for the copy being filled under {@code own}, once {@code victims} are gone: held copies
   * free their bytes, admitted fills under way their staged bytes (an evicted fill is not kept).
   */
  synchronized long freeBytesAfter(Staging own, Collection<BlockKey> victims) {
    long released = 0;
    for (BlockKey victim : new HashSet<>(victims)) {
      CachedCopy copy = copies.get(victim);
      Staging filled = filling.get(victim);
      if (copy != null) {
        released += copy.bytes();
      } else if (filled != null && filled != own && filled.admitted) {
        released += filled.bytes();
      }
    }
    return freeBytesBeside(own) + released;
  }

  /** The arbiter admitted the fill: its bytes count against the room of later admissions. */
  synchronized void admitted(Staging staging) {
    staging.admitted = true;
  }

  /**
   * Room for the copy being filled under {@code own}, now: the bytes of other fills already
   * admitted count as taken (the arbiter counted them before this one); fills not admitted yet
   * do not (it will count them, with their own victims, after this one).
   */
  private long freeBytesBeside(Staging own) {
    long quota = 0;
    for (CacheDir dir : dirs) {
      if (dir.acceptsFills()) {
        long admitted = 0;
        for (Staging staging : filling.values()) {
          admitted += staging != own && staging.admitted && staging.dir == dir ? staging.bytes : 0;
        }
        quota += Math.max(0, dir.freeBytes() - admitted);
      }
    }
    return Math.max(0, Math.min(quota, capacityBytes() - usedBytes()));
  }

  /** Sets what input data may fill; true when that changed. */
  synchronized boolean limitInput(long bytes) {
    boolean changed = bytes != inputLimitBytes;
    inputLimitBytes = bytes;
    return changed;
  }

  /** While input data is over its limit, removes the copies {@code victims} names for the excess. */
  synchronized List<CachedCopy> trimToLimit(LongFunction<List<BlockKey>> victims) {
    long excess = usedBytes() - capacityBytes();
    return excess > 0 ? evict(victims.apply(excess)) : List.of();
  }

  /** Waits until input data holds at most {@code bytes}, or {@code millis} have passed. */
  synchronized boolean awaitUsedAtMost(long bytes, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (usedBytes() > bytes) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }

  // ---- Fills -------------------------------------------------------------------------------

  /**
   * Starts a fill of {@code bytes}: the dir to write it to, or null when the block is cached,
   * being filled or changing, or no dir can take it now. The dir with the most room is chosen
   * among those whose device (at its last check) has the bytes beyond the fills under way; the
   * bytes count against its quota only when the copy is committed.
   */
  synchronized Staging stageFill(BlockKey key, long bytes) {
    if (copies.containsKey(key) || filling.containsKey(key) || changing.containsKey(key)) {
      return null;
    }
    CacheDir best = null;
    for (CacheDir dir : dirs) {
      if (dir.acceptsFills() && dir.usableBytes() - dir.stagedBytes() >= bytes
          && (best == null || room(dir) > room(best))) {
        best = dir;
      }
    }
    if (best == null) {
      return null;
    }
    Staging staging = new Staging(best, bytes);
    best.addStaged(bytes);
    filling.put(key, staging);
    return staging;
  }

  private static long room(CacheDir dir) {
    return dir.freeBytes() - dir.stagedBytes();
  }

  /** Fills staged and not yet committed or given up. */
  synchronized int fillsUnderWay() {
    return filling.size();
  }

  /**
   * A fill ends: its room is no longer held (the arbiter, unless it refused the block, is told by
   * {@link #forget}).
   */
  synchronized void unstage(BlockKey key, Staging staging) {
    if (filling.get(key) == staging) {
      filling.remove(key);
      staging.dir().addStaged(-staging.bytes());
    }
  }

  /** The arbiter learns the block is not cached, unless a copy of it has been taken since. */
  synchronized void forget(BlockKey key) {
    if (!copies.containsKey(key)) {
      arbiter.onRemoved(key);
    }
  }

  /** The count of replica changes begun or ended so far; pass it to {@link #commit}. */
  synchronized long changes() {
    return changes;
  }

  /**
   * Takes a filled copy whose replica the caller found unchanged when the change count was
   * {@code changesSeen}; it must fit its dir's quota and the input limit, and not have been
   * evicted while it was filled. The fill's staging
   * ends unless the answer is {@link Offer#RECHECK}.
   */
  synchronized Offer commit(CachedCopy copy, Staging staging, long changesSeen) {
    if (changes != changesSeen) {
      return Offer.RECHECK;
    }
    boolean evicted = filling.get(copy.key()) != staging;
    unstage(copy.key(), staging);
    CacheDir dir = copy.dir();
    if (!dir.healthy()) {
      return Offer.LEFT; // its files wait for the dir to come back, when they are checked again
    }
    if (evicted || changing.containsKey(copy.key()) || copies.containsKey(copy.key())
        || dir.freeBytes() < copy.bytes() || usedBytes() + copy.bytes() > capacityBytes()) {
      return Offer.REFUSED;
    }
    put(copy);
    counters.increment(CacheCounter.FILLS);
    return Offer.TAKEN;
  }

  /**
   * Takes a copy found on a dir (start-up, or the dir back in use) whose replica the caller
   * found matching when the change count was {@code changesSeen}.
   */
  synchronized Offer adopt(CachedCopy copy, long changesSeen) {
    if (changes != changesSeen) {
      return Offer.RECHECK;
    }
    CachedCopy held = copies.get(copy.key());
    if (held != null && held.dataFile().equals(copy.dataFile())) {
      return Offer.LEFT;
    }
    if (held != null || changing.containsKey(copy.key()) || filling.containsKey(copy.key())
        || copy.dir().freeBytes() < copy.bytes()) {
      return Offer.REFUSED;
    }
    if (!copy.dir().healthy()) {
      return Offer.LEFT;
    }
    put(copy);
    return Offer.TAKEN;
  }

  private void put(CachedCopy copy) {
    copies.put(copy.key(), copy);
    copy.dir().addUsed(copy.bytes());
    arbiter.onCached(copy.key(), copy.bytes());
  }

  // ---- Removal -----------------------------------------------------------------------------

  /** Removes the held copies of these blocks (evicted to make room); their fills are not kept. */
  synchronized List<CachedCopy> evict(Collection<BlockKey> keys) {
    List<CachedCopy> removed = new ArrayList<>();
    for (BlockKey key : keys) {
      CachedCopy copy = copies.get(key);
      if (copy != null) {
        remove(copy, CacheCounter.EVICTIONS);
        removed.add(copy);
      } else if (filling.containsKey(key)) {
        unstage(key, filling.get(key)); // the arbiter counts it gone: its commit is refused
      }
    }
    return removed;
  }

  /** Removes {@code copy} if it is still the block's copy; true when it was. */
  synchronized boolean removeIfHeld(CachedCopy copy, CacheCounter reason) {
    if (copies.get(copy.key()) != copy) {
      return false;
    }
    remove(copy, reason);
    return true;
  }

  /**
   * The block's replica is about to change (append, recovery, truncate, delete): no copy of it
   * is served, filled or taken in until {@link #endChange}. Returns the copy removed, or null.
   */
  synchronized CachedCopy beginChange(BlockKey key) {
    changing.merge(key, 1, Integer::sum);
    changes++;
    CachedCopy copy = copies.get(key);
    if (copy != null) {
      remove(copy, CacheCounter.INVALIDATIONS);
    }
    return copy;
  }

  synchronized void endChange(BlockKey key) {
    changing.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    changes++;
  }

  /**
   * Removes every copy of a dir that failed, and the fills into it; their files stay where they
   * are.
   */
  synchronized List<CachedCopy> dropDir(CacheDir dir) {
    filling.values().removeIf(staging -> {
      if (staging.dir() == dir) {
        dir.addStaged(-staging.bytes());
        return true;
      }
      return false;
    });
    List<CachedCopy> removed = new ArrayList<>();
    for (CachedCopy copy : List.copyOf(copies.values())) {
      if (copy.dir() == dir) {
        remove(copy, CacheCounter.DIR_FAILED_DROPPED);
        removed.add(copy);
      }
    }
    return removed;
  }

  /** Removes every copy of a block pool. */
  synchronized List<CachedCopy> removePool(String blockPoolId) {
    List<CachedCopy> removed = new ArrayList<>();
    for (CachedCopy copy : List.copyOf(copies.values())) {
      if (copy.key().blockPoolId().equals(blockPoolId)) {
        remove(copy, CacheCounter.INVALIDATIONS);
        removed.add(copy);
      }
    }
    return removed;
  }

  private void remove(CachedCopy copy, CacheCounter reason) {
    copies.remove(copy.key());
    copy.dir().addUsed(-copy.bytes());
    arbiter.onRemoved(copy.key());
    counters.increment(reason);
    notifyAll();
  }
}
