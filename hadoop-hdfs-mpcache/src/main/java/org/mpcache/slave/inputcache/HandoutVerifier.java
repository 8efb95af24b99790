package org.mpcache.slave.inputcache;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIR_IO_TIMEOUT_KEY;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole-copy verification a short-circuit hand-out needs when the copy was not verified
 * within {@code dfs.mpcache.short-circuit.verify.max-age}: run by a few threads of the copy's dir,
 * never on the DataNode thread that asks (an IPC handler for a legacy reader, a transfer thread
 * for descriptors), which waits for it at most {@code dfs.mpcache.dir.io.timeout}; a copy not
 * verified by then is not handed out this time, and the reader gets the HDD replica. Hand-outs of
 * one copy share its verification. At most {@link #MAX_WAITING} verifications wait for a dir's
 * threads, and at most half the DataNode's IPC handlers wait at once (the others answer at once,
 * with the HDD replica): lease and pipeline recovery, which those handlers also serve, always
 * find one free, whatever local readers do and however slow the SSD.
 */
final class HandoutVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(HandoutVerifier.class);
  static final int MAX_WAITING = 16;
  /** Verifications of a dir under way at once, each a whole copy read. */
  static final int THREADS_PER_DIR = 4;

  private final SsdStore store;
  private final CopyRead.Failures failures;
  private final CacheCounter.Values counters;
  private final long maxAgeMillis;
  private final long waitMillis;
  private final Map<CacheDir, ThreadPoolExecutor> threads;
  private final Map<CachedCopy, FutureTask<Boolean>> underWay = new ConcurrentHashMap<>();
  private final Semaphore handlerWaits;

  HandoutVerifier(SsdStore store, CopyRead.Failures failures, CacheCounter.Values counters,
      long maxAgeMillis, long waitMillis, int handlerWaiters) {
    this.handlerWaits = new Semaphore(handlerWaiters);
    this.store = store;
    this.failures = failures;
    this.counters = counters;
    this.maxAgeMillis = maxAgeMillis;
    this.waitMillis = waitMillis;
    this.threads = store.dirs().stream().collect(Collectors.toUnmodifiableMap(
        Function.identity(), HandoutVerifier::threadOf));
  }

  private static ThreadPoolExecutor threadOf(CacheDir dir) {
    ThreadPoolExecutor thread = new ThreadPoolExecutor(THREADS_PER_DIR, THREADS_PER_DIR, 60,
        TimeUnit.SECONDS, new LinkedBlockingQueue<>(MAX_WAITING), new ThreadFactoryBuilder()
            .setDaemon(true).setNameFormat("mpcache-handout-verify-"
                + dir.toString().replace('%', '_') + "-%d").build());
    thread.allowCoreThreadTimeOut(true);
    return thread;
  }

  /**
   * True when the copy may be handed out: verified within the configured age, or now, within
   * the wait. A copy that fails its verification is reported to the failures and dropped.
   *
   * @param onIpcHandler the caller is one of the DataNode's IPC handlers
   */
  boolean verified(CachedCopy copy, boolean onIpcHandler) {
    if (copy.verifiedWithin(Time.monotonicNow(), maxAgeMillis)) {
      return true;
    }
    if (!onIpcHandler) {
      return awaitVerification(copy);
    }
    if (!handlerWaits.tryAcquire()) {
      return notVerified(copy, "half the DataNode's IPC handlers wait for verifications already");
    }
    try {
      return awaitVerification(copy);
    } finally {
      handlerWaits.release();
    }
  }

  private boolean awaitVerification(CachedCopy copy) {
    FutureTask<Boolean> verification = new FutureTask<>(() -> verify(copy));
    FutureTask<Boolean> shared = underWay.putIfAbsent(copy, verification);
    if (shared == null) {
      shared = verification;
      try {
        threads.get(copy.dir()).execute(verification);
      } catch (RejectedExecutionException e) {
        underWay.remove(copy, verification);
        return notVerified(copy, MAX_WAITING + " verifications already wait for its dir");
      }
      counters.increment(CacheCounter.HANDOUT_VERIFICATIONS);
    }
    try {
      return shared.get(waitMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return notVerified(copy, "its verification took over " + waitMillis + " ms ("
          + DFS_MPCACHE_DIR_IO_TIMEOUT_KEY + ")");
    } catch (ExecutionException e) {
      return notVerified(copy, e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** On the dir's thread. */
  private boolean verify(CachedCopy copy) {
    try {
      // A dir that failed while this waited: its copies are out of use.
      return copy.dir().healthy() && CopyRead.verifiedWhole(copy, store, failures, counters);
    } finally {
      underWay.remove(copy);
    }
  }

  private boolean notVerified(CachedCopy copy, String why) {
    counters.increment(CacheCounter.HANDOUTS_UNVERIFIED);
    LOG.debug("mpCache: {} not handed out to a short-circuit reader: {}", copy, why);
    return false;
  }

  void close() {
    threads.values().forEach(ThreadPoolExecutor::shutdownNow);
  }
}
