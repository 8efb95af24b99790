package org.mpcache.slave.inputcache;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes in the copies an SSD dir holds, on the dir's lane: at start-up once the DataNode has
 * loaded a block pool's replicas, and when a failed dir is back in use (its device came back,
 * with the layout it had). Copies that still match their replica are served without refilling,
 * and checked before any short-circuit hand-out; the others are deleted. Unless the dir was let
 * go by a clean stop ({@code SsdStore#close}), each copy is read and verified whole first: a crash
 * or a failing device may have lost what was written last. No fill goes to the dir meanwhile.
 */
final class CopyAdoption {
  private static final Logger LOG = LoggerFactory.getLogger(CopyAdoption.class);

  private final SsdStore store;
  private final CopyIndex index;
  private final ReplicaSource replicas;
  private final CacheCounter.Values counters;
  private final Set<String> pools = ConcurrentHashMap.newKeySet();

  CopyAdoption(SsdStore store, CopyIndex index, ReplicaSource replicas,
      CacheCounter.Values counters) {
    this.store = store;
    this.index = index;
    this.replicas = replicas;
    this.counters = counters;
  }

  /** A block pool's replicas are loaded: its copies in every healthy dir are taken in. */
  void addPool(String blockPoolId) {
    pools.add(blockPoolId);
    for (CacheDir dir : store.dirs()) {
      if (dir.healthy()) {
        dir.adopting(true);
        dir.lane().submit(() -> {
          try {
            adopt(dir, blockPoolId);
          } finally {
            dir.adopting(false);
          }
          return null;
        });
      }
    }
  }

  void removePool(String blockPoolId) {
    pools.remove(blockPoolId);
  }

  /**
   * Brings a failed dir back into use, on its lane: it is admitted again (layout, quota), then
   * the copies it holds are taken in.
   */
  void recover(CacheDir dir, String why) {
    dir.adopting(true);
    dir.lane().submit(() -> {
      try {
        store.admit(dir);
        LOG.info("mpCache SSD dir {} is back in use ({}); taking in the copies it holds", dir,
            why);
        dir.recovered();
        for (String pool : pools) {
          adopt(dir, pool);
        }
      } catch (IOException e) {
        String reason = "it passes its check but cannot be taken back into use: "
            + e.getMessage();
        if (!reason.equals(dir.failure())) {
          LOG.error("mpCache SSD dir {} ({}) stays out of use: {}", dir, DFS_MPCACHE_DIRS_KEY,
              reason);
        }
        dir.fail(reason);
      } finally {
        dir.adopting(false);
      }
      return null;
    });
  }

  /** On the dir's lane. */
  private void adopt(CacheDir dir, String blockPoolId) {
    List<CachedCopy> found;
    try {
      found = store.scan(dir, blockPoolId);
    } catch (IOException e) {
      LOG.warn("mpCache: cannot list the copies of block pool {} in {}: {}", blockPoolId, dir,
          e.getMessage());
      return;
    }
    int kept = 0;
    int discarded = 0;
    int corrupt = 0;
    for (CachedCopy copy : found) {
      if (!dir.stoppedCleanly() && copy.matches(replicas.finalizedReplica(copy.key()))
          && !verified(copy)) {
        store.discard(dir, copy.dataFile(), copy.metaFile());
        counters.increment(CacheCounter.CORRUPT_DROPPED);
        corrupt++;
        continue;
      }
      CopyIndex.Offer offer;
      do {
        long changesSeen = index.changes();
        offer = copy.matches(replicas.finalizedReplica(copy.key()))
            ? index.adopt(copy, changesSeen) : CopyIndex.Offer.REFUSED;
      } while (offer == CopyIndex.Offer.RECHECK);
      if (offer == CopyIndex.Offer.TAKEN) {
        kept++;
      } else if (offer == CopyIndex.Offer.REFUSED) {
        store.discard(dir, copy.dataFile(), copy.metaFile());
        counters.increment(CacheCounter.STALE_DISCARDED);
        discarded++;
      }
    }
    if (!dir.stoppedCleanly()) {
      dir.poolVerified(blockPoolId);
    }
    LOG.info("mpCache: block pool {} in {}: {} cached copies kept, {} stale copies discarded{}",
        blockPoolId, dir, kept, discarded, dir.stoppedCleanly() ? "" : ", " + corrupt
            + " failing their verification discarded (the dir was not let go by a clean stop:"
            + " every copy was read and verified)");
  }

  /** Reads and verifies a copy whole; false, saying why, when it does not match its checksums. */
  private boolean verified(CachedCopy copy) {
    return CopyRead.verifiedWhole(copy, store,
        (failed, why, ioError) -> LOG.warn("mpCache: discarding {}: {}", failed, why), counters);
  }
}
