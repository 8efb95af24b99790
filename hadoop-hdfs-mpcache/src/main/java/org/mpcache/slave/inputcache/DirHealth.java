package org.mpcache.slave.inputcache;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CacheDir;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the SSD dirs' health: checks each dir every {@code dfs.mpcache.dir.check.interval} and
 * whenever a call to it failed, takes a dir out of use when its check fails or any call to it
 * (a read, a write, a delete, a check) has not returned within {@code dfs.mpcache.dir.io.timeout},
 * and brings a failed dir back into use, with the copies it still holds, once its check passes
 * again and no call is stuck in it any more (the device came back or was replaced). Checks run on the dirs' lanes; this monitor only
 * looks at their answers, so a hung device stalls nothing but its own lane.
 */
final class DirHealth implements DirTrouble {
  private static final Logger LOG = LoggerFactory.getLogger(DirHealth.class);

  private final SsdStore store;
  private final CopyIndex index;
  private final Consumer<List<CachedCopy>> stranded;
  private final CopyAdoption adoption;
  private final CacheCounter.Values counters;
  private final long checkIntervalMillis;
  private final long ioTimeoutMillis;
  private final ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-dir-health").build());
  /** Checks under way on the dirs' lanes. A check's calls are watched like every other call. */
  private final Map<CacheDir, Future<SsdStore.DirCheck>> checks = new ConcurrentHashMap<>();
  private final Map<CacheDir, Long> lastChecked = new ConcurrentHashMap<>();

  /**
   * @param stranded takes the copies of a dir that failed (still on its device, out of the index)
   */
  DirHealth(SsdStore store, CopyIndex index, Consumer<List<CachedCopy>> stranded,
      CopyAdoption adoption, CacheCounter.Values counters, long checkIntervalMillis,
      long ioTimeoutMillis) {
    this.store = store;
    this.index = index;
    this.stranded = stranded;
    this.adoption = adoption;
    this.counters = counters;
    this.checkIntervalMillis = checkIntervalMillis;
    this.ioTimeoutMillis = ioTimeoutMillis;
  }

  void start() {
    long now = Time.monotonicNow();
    store.dirs().forEach(dir -> lastChecked.put(dir, now));
    long tick = Math.max(50, Math.min(1000, Math.min(ioTimeoutMillis, checkIntervalMillis) / 4));
    monitor.scheduleWithFixedDelay(this::tickQuietly, tick, tick, TimeUnit.MILLISECONDS);
  }

  @Override
  public void suspect(CacheDir dir, IOException cause) {
    LOG.warn("mpCache: a call to SSD dir {} failed ({}); checking the dir", dir,
        cause.getMessage());
    onMonitor(() -> startCheck(dir));
  }

  @Override
  public void hung(CacheDir dir, String what) {
    fail(dir, what);
  }

  private void onMonitor(Runnable work) {
    try {
      monitor.execute(work);
    } catch (RejectedExecutionException e) {
      // stopped: the DataNode is shutting down
    }
  }

  private void tickQuietly() {
    try {
      tick();
    } catch (RuntimeException e) {
      LOG.warn("mpCache: checking the SSD dirs failed", e);
    }
  }

  private void tick() {
    long now = Time.monotonicNow();
    for (CacheDir dir : store.dirs()) {
      long oldest = dir.lane().oldestInFlightMillis();
      if (dir.healthy() && oldest > ioTimeoutMillis) {
        fail(dir, "a call to the device has not returned for " + oldest + " ms (over "
            + ioTimeoutMillis + " ms: hung?)");
      }
      Future<SsdStore.DirCheck> check = checks.get(dir);
      if (check == null) {
        if (now - lastChecked.getOrDefault(dir, 0L) >= checkIntervalMillis) {
          startCheck(dir);
        }
      } else if (check.isDone()) {
        checks.remove(dir);
        apply(dir, check);
      }
    }
  }

  /** On the monitor thread. */
  private void startCheck(CacheDir dir) {
    if (!checks.containsKey(dir)) {
      lastChecked.put(dir, Time.monotonicNow());
      checks.put(dir, dir.lane().submit(() -> store.check(dir)));
    }
  }

  private void apply(CacheDir dir, Future<SsdStore.DirCheck> answer) {
    counters.increment(CacheCounter.DIR_CHECKS);
    SsdStore.DirCheck found;
    try {
      found = SsdStore.await(answer, 0, dir);
    } catch (IOException e) {
      fail(dir, e.getMessage());
      return;
    }
    dir.usableBytes(found.usableBytes());
    if (dir.healthy() && !found.layoutPresent()) {
      fail(dir, "its cache layout under " + dir + " disappeared");
    } else if (!dir.healthy() && !dir.adopting()
        && dir.lane().oldestInFlightMillis() <= ioTimeoutMillis) {
      // Back only once no call is stuck in it: a device that answers a check but still holds
      // a read would take the next reads of its copies with it.
      adoption.recover(dir, "its check passes again");
    }
  }

  /** Takes a dir out of use with its copies (their files stay). No I/O: a lock is fine. */
  private synchronized void fail(CacheDir dir, String reason) {
    if (!dir.healthy()) {
      return;
    }
    dir.fail(reason);
    stranded.accept(index.dropDir(dir));
    LOG.error("mpCache SSD dir {} ({}) is out of use until it passes its check again: {}", dir,
        DFS_MPCACHE_DIRS_KEY, reason);
  }

  void close() {
    monitor.shutdownNow();
  }
}
