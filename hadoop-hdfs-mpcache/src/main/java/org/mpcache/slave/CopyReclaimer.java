package org.mpcache.slave;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.slave.store.CachedCopy;
import org.mpcache.slave.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims copies that left the index: local readers holding their files are told (their
 * short-circuit slots revoked), then the files are deleted, never by a reader and never under
 * the index's lock. Evictions queue on their dir's lane; a stale or corrupt copy is deleted at
 * once; a copy whose replica is about to change is deleted before the change proceeds, so a
 * legacy short-circuit reader that kept the copy's paths cannot open them for the new bytes.
 */
final class CopyReclaimer {
  private static final Logger LOG = LoggerFactory.getLogger(CopyReclaimer.class);

  private final SsdStore store;
  private final ShortCircuitSlots slots;
  private final DirTrouble trouble;
  private final long ioTimeoutMillis;
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
      copy.dir().lane().submit(() -> {
        store.discard(copy.dir(), copy.dataFile(), copy.metaFile());
        return null;
      });
    }
  }

  /** A stale or corrupt copy: revoked and deleted now, without waiting. */
  void reclaimNow(CachedCopy copy) {
    slots.revoke(copy.key());
    deleteUrgently(copy);
  }

  /**
   * A copy whose replica is about to change: revoked and deleted before the change goes on,
   * waiting at most the I/O timeout (a dir whose device does not answer is failed).
   */
  void reclaimBeforeChange(CachedCopy copy) {
    slots.revoke(copy.key());
    try {
      SsdStore.await(deleteUrgently(copy), ioTimeoutMillis, copy.dir());
    } catch (IOException e) {
      trouble.hung(copy.dir(), "deleting " + copy.dataFile() + " before its replica changed: "
          + e.getMessage());
    }
  }

  /** Copies of a failed dir: revoked; their files stay (the dir is not touched until it is back). */
  void revoke(Collection<CachedCopy> removed) {
    removed.forEach(copy -> slots.revoke(copy.key()));
  }

  /** Revokes what local readers hold of a block that has no copy (its replica is changing). */
  void revoke(BlockKey key) {
    slots.revoke(key);
  }

  private Future<?> deleteUrgently(CachedCopy copy) {
    return urgent.submit(() -> {
      store.discard(copy.dir(), copy.dataFile(), copy.metaFile());
      return null;
    });
  }

  void close() {
    urgent.shutdownNow();
    LOG.debug("mpCache: copy reclaimer stopped");
  }
}
