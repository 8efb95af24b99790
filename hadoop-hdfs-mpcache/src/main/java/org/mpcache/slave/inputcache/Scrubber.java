package org.mpcache.slave.inputcache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and verifies every copy of each SSD dir in turn at a bounded rate
 * ({@code dfs.mpcache.scrub.bytes-per-second} per dir, the DataNode's VolumeScanner idea for
 * copies): rot is found within one pass even in copies that only short-circuit readers read,
 * which the DataNode never sees. A copy that fails is dropped (its short-circuit slots revoked,
 * its files deleted); one whose replica changed without the cache being told is discarded. One
 * thread per dir, so a hung device stops only its own scrub.
 */
final class Scrubber {
  private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);
  private static final long IDLE_MILLIS = 1000;

  private final CopyIndex index;
  private final SsdStore store;
  private final ReplicaSource replicas;
  private final CopyReclaimer reclaimer;
  private final CopyRead.Failures failures;
  private final CacheCounter.Values counters;
  private final long bytesPerSecond;
  private final List<Thread> threads = new ArrayList<>();
  /** How long the last complete pass over a dir took, the longest over the dirs. */
  private final AtomicLong lastPassMillis = new AtomicLong();
  private volatile boolean running = true;

  Scrubber(CopyIndex index, SsdStore store, ReplicaSource replicas, CopyReclaimer reclaimer,
      CopyRead.Failures failures, CacheCounter.Values counters, long bytesPerSecond) {
    this.index = index;
    this.store = store;
    this.replicas = replicas;
    this.reclaimer = reclaimer;
    this.failures = failures;
    this.counters = counters;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Starts a thread per dir; none when the rate is 0 (scrubbing off). */
  void start() {
    if (bytesPerSecond <= 0) {
      LOG.warn("mpCache: scrubbing of SSD copies is off: rot in a copy held open by a"
          + " short-circuit reader is not found until the copy is read remotely or handed out");
      return;
    }
    for (CacheDir dir : store.dirs()) {
      Thread thread = new Thread(() -> scrub(dir), "mpcache-scrub-" + dir);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** The longest pass over a dir so far: the bound on how long rot stays unnoticed. */
  long lastPassMillis() {
    return lastPassMillis.get();
  }

  private void scrub(CacheDir dir) {
    DataTransferThrottler throttler = new DataTransferThrottler(bytesPerSecond);
    while (running) {
      long start = Time.monotonicNow();
      int scrubbed = 0;
      for (CachedCopy copy : index.byVerification()) {
        if (!running) {
          return;
        }
        if (copy.dir() == dir && dir.healthy() && scrubOne(copy, throttler)) {
          scrubbed++;
        }
      }
      if (scrubbed > 0) {
        lastPassMillis.accumulateAndGet(Time.monotonicNow() - start, Math::max);
      } else if (!idle()) {
        return;
      }
    }
  }

  /** Verifies one copy; false when it was no longer there to verify. */
  private boolean scrubOne(CachedCopy copy, DataTransferThrottler throttler) {
    if (index.copyOf(copy.key()) != copy) {
      return false;
    }
    if (!copy.matches(replicas.finalizedReplica(copy.key()))) {
      if (index.removeIfHeld(copy, CacheCounter.STALE_DISCARDED)) {
        reclaimer.reclaimNow(copy);
      }
      return false;
    }
    if (CopyRead.verifiedWhole(copy, store, failures, counters, throttler)) {
      counters.increment(CacheCounter.COPIES_SCRUBBED);
      counters.add(CacheCounter.BYTES_SCRUBBED, copy.bytes());
    }
    return true; // a failure was reported, and the copy dropped
  }

  private boolean idle() {
    try {
      Thread.sleep(IDLE_MILLIS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void close() {
    running = false;
    threads.forEach(Thread::interrupt);
  }
}
