package org.mpcache.slave.inputcache;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;

/**
 * Reclaims copies that left the index: local readers holding their files are told (their
 * short-circuit slots revoked), then the files are deleted, never by a reader and never under
 * the index's lock. Evictions queue on their dir's lane; a stale or corrupt copy is deleted at
 * once. Before a block's replica changes, every file of it still on a dir in use (its copy, and
 * those whose deletion is still queued) is deleted, waiting at most the I/O timeout: a legacy
 * short-circuit reader that kept a copy's data path (it caches paths by block id) cannot open it
 * for the new bytes. A deletion that fails or does not return takes the dir out of use. Files on
 * a dir out of use are deleted too if no call to it is stuck, without waiting; behind a hung
 * device they are left, and taken in or discarded when the dir is back (CopyAdoption): such a
 * reader's cached checksum path, the replica's own, names the old generation and is gone.
 */
final class CopyReclaimer {
  private final SsdStore store;
  private final ShortCircuitSlots slots;
  private final DirTrouble trouble;
  private final long ioTimeoutMillis;
  /** Copies removed from the index whose files may still be on their SSD, by block. */
  private final Map<BlockKey, Set<CachedCopy>> undeleted = new ConcurrentHashMap<>();
  /** Deletes that must not wait behind a lane's queue; a thread each while the device answers. */
  private final ExecutorService urgent = Executors.newCachedThreadPool(new ThreadFactoryBuilder()
      .setDaemon(true).setNameFormat("mpcache-ssd-urgent-%d").build());

  CopyReclaimer(SsdStore store, ShortCircuitSlots slots, DirTrouble trouble,
      long ioTimeoutMillis) {
    this.store = store;
    this.slots = slots;
    this.trouble = trouble;
    this.ioTimeoutMillis = ioTimeoutMillis;
  }

  /** Copies evicted or forgotten: revoked now, deleted on their dirs' lanes. */
  void reclaim(Collection<CachedCopy> removed) {
    for (CachedCopy copy : removed) {
      slots.revoke(copy.key());
      pending(copy);
      copy.dir().lane().submit(() -> {
        delete(copy);
        return null;
      });
    }
  }

  /** A stale or corrupt copy: revoked and deleted now, without waiting. */
  void reclaimNow(CachedCopy copy) {
    slots.revoke(copy.key());
    pending(copy);
    deleteUrgently(copy);
  }

  /**
   * The block's replica is about to change: its slots are revoked, and its copy ({@code copy},
   * or null) and every copy of it still being deleted from a dir in use are deleted before this
   * returns, waiting at most the I/O timeout for them all.
   */
  void reclaimBeforeChange(BlockKey key, CachedCopy copy) {
    slots.revoke(key);
    if (copy != null) {
      pending(copy);
    }
    List<CachedCopy> left = new ArrayList<>();
    for (CachedCopy each : undeleted.getOrDefault(key, Set.of())) {
      if (each.dir().healthy()) {
        left.add(each);
      } else if (each.dir().lane().oldestInFlightMillis() == 0) {
        // Out of use but answering (a check failed): asked once, not waited for.
        each.dir().lane().submit(() -> delete(each));
      }
    }
    List<Future<Boolean>> deletions = new ArrayList<>();
    left.forEach(each -> deletions.add(deleteUrgently(each)));
    long deadline = Time.monotonicNow() + ioTimeoutMillis; // one wait for them all
    for (int i = 0; i < left.size(); i++) {
      CachedCopy each = left.get(i);
      try {
        long wait = Math.max(0, deadline - Time.monotonicNow());
        if (!SsdStore.await(deletions.get(i), wait, each.dir())) {
          trouble.hung(each.dir(), "could not delete " + each.dataFile()
              + " before its replica changed");
        }
      } catch (InterruptedIOException e) {
        return; // the DataNode stops
      } catch (IOException e) {
        trouble.hung(each.dir(), "deleting " + each.dataFile() + " before its replica changed: "
            + e.getMessage());
      }
    }
  }

  /** Copies of a block pool that is shut down: revoked; their files stay for its next start. */
  void revoke(Collection<CachedCopy> removed) {
    removed.forEach(copy -> slots.revoke(copy.key()));
  }

  /**
   * Copies of a dir that failed: revoked; their files stay, to be taken in again when the dir is
   * back, but one whose replica changes meanwhile is deleted first if its dir answers (it is not
   * waited for: no call goes to a device that hangs).
   */
  void strand(Collection<CachedCopy> removed) {
    for (CachedCopy copy : removed) {
      slots.revoke(copy.key());
      pending(copy);
    }
  }

  private void pending(CachedCopy copy) {
    undeleted.computeIfAbsent(copy.key(), k -> ConcurrentHashMap.newKeySet()).add(copy);
  }

  private Future<Boolean> deleteUrgently(CachedCopy copy) {
    return urgent.submit(() -> delete(copy));
  }

  /** Deletes a copy's files (data first: no complete copy is left half-way); true when gone. */
  private boolean delete(CachedCopy copy) {
    boolean gone = store.discard(copy.dir(), copy.dataFile(), copy.metaFile());
    if (gone) {
      undeleted.computeIfPresent(copy.key(), (key, copies) -> {
        copies.remove(copy);
        return copies.isEmpty() ? null : copies;
      });
    }
    return gone;
  }

  /** True while some copy removed from the index may still have files in {@code dir}. */
  boolean deleting(CacheDir dir) {
    return undeleted.values().stream().flatMap(Set::stream).anyMatch(copy -> copy.dir() == dir);
  }

  void close() {
    urgent.shutdownNow();
  }
}
