package org.mpcache.slave.spacetuner;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIR_IO_TIMEOUT_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_POOL_UNIT_KEY;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.thirdparty.com.google.common.math.LongMath;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.LocalizedSettings;
import org.mpcache.policy.slave.DynamicPool;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.slave.channel.LocalizedChannel;
import org.mpcache.slave.inputcache.InputCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Dynamic Space Tuner of one DataNode (the mpCache paper §3.2): splits its SSD cache into Input
 * Cache + Dynamic Pool + Localized Cache ({@link DynamicPool}), grants the node's task attempts
 * room for intermediate files in the localized dirs, makes input data give pool units up (evicted
 * through the replacement scheme) and take them back under the guard value.
 *
 * <p>Task JVMs reach it through the {@link LocalizedChannel}, over loopback RPC; each localized
 * dir holds a file naming the address ({@link #ADDRESS_FILE}), so a task finds the slave that
 * owns an SSD dir among its local dirs.
 * What localized data holds is measured: live grants ({@link LocalizedLedger}) and a periodic
 * scan of the dirs, files attributed to attempts by the attempt id in their path.
 *
 * <p>Lock order: this tuner's monitor, then the input cache's (which never calls the tuner), so
 * the cache's limit always follows the pool's latest state.
 */
public final class SpaceTuner implements LocalizedSpaceProtocol, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpaceTuner.class);
  /**
   * More task attempts than a node runs at once, in all and of one job (a node runs at most a
   * few dozen containers): a job that makes up attempt ids takes at most this many.
   */
  static final int MAX_LIVE_ATTEMPTS = 10_000;
  public static final int MAX_LIVE_ATTEMPTS_PER_JOB = 128;
  /** Attempt ids are about 40 characters; a longer one is no attempt of a real job. */
  private static final int MAX_ATTEMPT_ID_CHARS = 100;

  private final List<Path> dirs;
  private final InputCache cache;
  private final LongSupplier clock;
  private final DynamicPool pool;
  private final LocalizedLedger ledger;
  private final long evictionWaitMillis;
  private final double jobMaxShare;
  private final double attemptMaxShare;
  private final AtomicLong grantedBytes = new AtomicLong();
  private final AtomicLong refusedBytes = new AtomicLong();
  private final ScheduledExecutorService scanner = Executors.newSingleThreadScheduledExecutor(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-space-tuner").build());
  private final long ioTimeoutMillis;
  private LocalizedChannel channel;
  private ScheduledFuture<?> scans;
  /** Paths the last scan could not read. */
  private volatile int unreadablePaths;
  /** The input cache's dirs on the localized dirs' devices, at the last scan; guarded by this. */
  private List<File> sharedCacheDirs = List.of();
  /** Bytes asked for by requests waiting for input data to leave; guarded by this. */
  private long waitingBytes;

  private SpaceTuner(List<Path> dirs, InputCache cache, DynamicPool pool,
      LocalizedSettings settings, LongSupplier clock) {
    this.dirs = dirs;
    this.cache = cache;
    this.pool = pool;
    this.ledger = new LocalizedLedger(settings.leaseMillis());
    this.evictionWaitMillis = settings.evictionWaitMillis();
    this.ioTimeoutMillis = settings.ioTimeoutMillis();
    this.jobMaxShare = settings.jobMaxShare();
    this.attemptMaxShare = settings.attemptMaxShare();
    this.clock = clock;
  }

  /**
   * Starts the tuner the DataNode's configuration asks for, or returns null (input data then has
   * the whole cache) when it asks for none or for something invalid, saying why.
   */
  public static SpaceTuner fromSettings(Configuration conf, InputCache cache) {
    LocalizedSettings settings;
    try {
      settings = LocalizedSettings.from(conf);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: intermediate data stays on the HDDs: invalid setting {}",
          e.getMessage());
      return null;
    }
    return start(settings, cache,
        conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT),
        conf);
  }

  /**
   * Starts the tuner for the settings, or returns null (input data then has the whole cache)
   * when localized caching is off, the input cache is disabled or no localized dir is usable,
   * saying why.
   *
   * @param blockBytes the HDFS block size, the pool's unit on all but small caches
   */
  public static SpaceTuner start(LocalizedSettings settings, InputCache cache, long blockBytes,
      Configuration conf) {
    if (!settings.enabled()) {
      return null;
    }
    if (!cache.enabled()) {
      LOG.error("mpCache: no localized data on the SSD, the input cache is disabled: {}",
          cache.disabledReason());
      return null;
    }
    List<Path> usable = usableDirs(settings);
    if (usable.isEmpty()) {
      LOG.error("mpCache: no usable dir in {}: intermediate data stays on the HDDs",
          DFS_MPCACHE_LOCALIZED_DIRS_KEY);
      return null;
    }
    long capacity = cache.storeCapacityBytes();
    long unit = DynamicPool.unitFor(capacity, blockBytes);
    if (settings.unitBytes() > capacity || (settings.unitBytes() > 0
        && capacity / settings.unitBytes() > Integer.MAX_VALUE)) {
      LOG.error("mpCache: {} = {} bytes makes no or too many units of the {} byte cache; using"
          + " {} bytes", DFS_MPCACHE_POOL_UNIT_KEY, settings.unitBytes(), capacity, unit);
    } else if (settings.unitBytes() > 0) {
      unit = settings.unitBytes();
    }
    DynamicPool pool = DynamicPool.split(capacity, unit, settings.poolShare(),
        settings.localizedShare(), settings.guard());
    SpaceTuner tuner = new SpaceTuner(usable, cache, pool, settings, System::currentTimeMillis);
    try {
      tuner.channel = LocalizedChannel.serve(tuner, settings, usable, conf, tuner.clock);
    } catch (IOException e) {
      LOG.error("mpCache: cannot serve task JVMs at {}: intermediate data stays on the HDDs",
          settings.address(), e);
      tuner.close();
      return null;
    }
    tuner.firstScan();
    tuner.scans = tuner.scanner.scheduleWithFixedDelay(tuner::scanQuietly,
        settings.scanMillis(), settings.scanMillis(), TimeUnit.MILLISECONDS);
    LOG.info("mpCache Dynamic Space Tuner: {} in {}, serving tasks at {}", pool, usable,
        tuner.channel.address());
    return tuner;
  }

  /**
   * The localized dirs that exist (or can be made) and can be written, found on a thread of
   * their own and waited for at most the I/O timeout: their device may hang, and the DataNode's
   * start-up must not (none is used then).
   */
  private static List<Path> usableDirs(LocalizedSettings settings) {
    ExecutorService checker = Executors.newSingleThreadExecutor(new ThreadFactoryBuilder()
        .setDaemon(true).setNameFormat("mpcache-localized-dirs-check").build());
    try {
      return checker.submit(() -> {
        List<Path> usable = new ArrayList<>();
        for (File dir : settings.dirs()) {
          if ((dir.isDirectory() || dir.mkdirs()) && Files.isWritable(dir.toPath())) {
            usable.add(dir.toPath());
          } else {
            LOG.error("mpCache: localized dir {} ({}) cannot be created or written; not using"
                + " it", dir, DFS_MPCACHE_LOCALIZED_DIRS_KEY);
          }
        }
        return usable;
      }).get(settings.ioTimeoutMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.error("mpCache: the localized dirs {} ({}) did not answer within {} ms ({}); not using"
          + " them", settings.dirs(), DFS_MPCACHE_LOCALIZED_DIRS_KEY, settings.ioTimeoutMillis(),
          DFS_MPCACHE_DIR_IO_TIMEOUT_KEY);
      return List.of();
    } catch (ExecutionException e) {
      LOG.error("mpCache: cannot check the localized dirs {}", settings.dirs(), e.getCause());
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } finally {
      checker.shutdownNow();
    }
  }

  /**
   * Scans once (publishing the channel's address in the localized dirs, measuring them and their
   * devices), as every scan does, waiting at most the I/O timeout: the dirs' device may hang,
   * and the DataNode's start-up must not.
   */
  private void firstScan() {
    try {
      scanner.submit(this::scanQuietly).get(ioTimeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      LOG.warn("mpCache: the first scan of the localized dirs failed", e.getCause());
    } catch (TimeoutException e) {
      LOG.warn("mpCache: the localized dirs {} did not answer within {} ms ({}); tasks find the"
          + " channel once they do", dirs, ioTimeoutMillis, DFS_MPCACHE_DIR_IO_TIMEOUT_KEY);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Grants the room if localized data has it, or once input data has left the pool units it
   * needs: at once when this slave decides alone; with a master, after the answer to the one
   * heartbeat the new limit hastens, waiting at most the eviction wait.
   */
  @Override
  public Reservation reserve(String attemptId, long bytes) throws IOException {
    checkAttempt(attemptId);
    if (bytes < 0) {
      // A size beyond Long.MAX_VALUE on the wire (uint64) reads as negative here.
      throw new IOException("mpCache: attempt " + attemptId + " asked for " + Long
          .toUnsignedString(bytes) + " bytes; a reservation is 0 to " + Long.MAX_VALUE + " bytes");
    }
    long deadline = clock.getAsLong() + evictionWaitMillis;
    long waiting = 0;
    try {
      while (true) {
        DynamicPool.Grant grant;
        long inputCapacity;
        synchronized (this) {
          long charged = ledger.charge(bytes);
          grant = overLimits(attemptId, charged) ? DynamicPool.Grant.NO_ROOM
              : pool.request(charged, cache.usedBytes());
          if (grant == DynamicPool.Grant.GRANTED
              && !ledger.devicesFit(charged, cache.bytesIn(sharedCacheDirs))) {
            // The pool's units are there, the device's bytes are not (it holds more than the
            // cache: a capacity set larger than the device, or others' files).
            pool.withdraw(charged);
            grant = DynamicPool.Grant.NO_ROOM;
          }
          if (grant == DynamicPool.Grant.GRANTED && bytes > 0) {
            ledger.granted(attemptId, charged, bytes, clock.getAsLong());
          } else if (grant == DynamicPool.Grant.EVICT_INPUT_FIRST) {
            // A scan meanwhile must not hand the units back; the charge may have changed.
            waitingBytes += charged - waiting;
            waiting = charged;
          }
          inputCapacity = pool.inputCapacityBytes();
          cache.limitInput(inputCapacity);
        }
        long left = deadline - clock.getAsLong();
        if (grant == DynamicPool.Grant.EVICT_INPUT_FIRST && left > 0
            && awaitInput(inputCapacity, left)) {
          continue;
        }
        boolean granted = grant == DynamicPool.Grant.GRANTED;
        if (!granted) {
          synchronized (this) {
            ledger.refused(attemptId);
          }
        }
        // Saturating: a refused request may be as large as Long.MAX_VALUE.
        (granted ? grantedBytes : refusedBytes).accumulateAndGet(bytes, LongMath::saturatedAdd);
        return new Reservation(granted, ledger.leaseMillis());
      }
    } finally {
      if (waiting > 0) {
        synchronized (this) {
          waitingBytes -= waiting;
        }
      }
    }
  }

  /**
   * Whether the attempt, or its job (running attempts' grants and ended attempts' files), would
   * hold more than its share of what localized data may ever hold
   * ({@code dfs.mpcache.localized.attempt.max-share}, {@code ...job.max-share}) while other jobs
   * compete for it: one job cannot take every pool unit from another. A job alone on the node
   * (no other job holds a grant or files, nor, with the relay, keys) may use all of the room;
   * what it holds when another arrives is not taken back, its new requests are capped. A new
   * attempt is also refused beyond
   * {@value #MAX_LIVE_ATTEMPTS} live attempts, or {@value #MAX_LIVE_ATTEMPTS_PER_JOB} of its job:
   * grants cost the tuner memory and time per attempt.
   */
  private boolean overLimits(String attemptId, long bytes) {
    long ceiling = pool.localizedCeilingBytes();
    String job = LocalizedLedger.jobOf(attemptId);
    int liveAttempts = ledger.liveAttempts(clock.getAsLong()); // expires lapsed leases first
    if (bytes > 0 && !ledger.holdsLease(attemptId) && (liveAttempts >= MAX_LIVE_ATTEMPTS
        || ledger.liveAttemptsOfJob(job) >= MAX_LIVE_ATTEMPTS_PER_JOB)) {
      return true;
    }
    if (!ledger.othersHold(job) && channel.jobsWithKeys() <= 1) {
      return false;
    }
    return LongMath.saturatedAdd(ledger.heldByAttempt(attemptId), bytes)
        > (long) (attemptMaxShare * ceiling)
        || LongMath.saturatedAdd(ledger.heldByJob(job), bytes) > (long) (jobMaxShare * ceiling);
  }

  /** Waits for input data to fit {@code bytes}; false when it did not in time or we stop. */
  private boolean awaitInput(long bytes, long millis) {
    try {
      return cache.awaitUsedAtMost(bytes, millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Refuses an id that names no MapReduce task attempt: grants are kept by attempt and their
   * files found by it, so anything else would hold room no scan could ever attribute.
   */
  private static void checkAttempt(String attemptId) throws IOException {
    if (attemptId.length() > MAX_ATTEMPT_ID_CHARS
        || !LocalizedScan.ATTEMPT.matcher(attemptId).matches()) {
      throw new IOException("mpCache: \"" + StringUtils.abbreviate(attemptId, 80)
          + "\" is not a task attempt id (attempt_<cluster>_<job>_<m|r>_<task>_<attempt>)");
    }
  }

  @Override
  public synchronized boolean renew(String attemptId) throws IOException {
    checkAttempt(attemptId);
    return ledger.renew(attemptId, clock.getAsLong());
  }

  @Override
  public void finish(String attemptId) throws IOException {
    checkAttempt(attemptId);
    synchronized (this) {
      ledger.finished(attemptId);
    }
    rebalance();
  }

  private void scanQuietly() {
    try {
      scan();
    } catch (IOException | RuntimeException e) {
      LOG.warn("mpCache: measuring the localized dirs failed; keeping the last figures", e);
    }
  }

  /** Measures the localized dirs, then resizes input and localized data. */
  void scan() throws IOException {
    channel.publishAddress();
    long scanNumber;
    Set<String> attempts;
    synchronized (this) {
      scanNumber = ledger.scanBegins();
      attempts = ledger.attemptsToMeasure();
    }
    LocalizedScan scan = LocalizedScan.of(dirs, ADDRESS_FILE, attempts);
    if (!scan.unreadable().isEmpty() && unreadablePaths == 0) {
      LOG.warn("mpCache: {} paths under the localized dirs cannot be read by the DataNode (for"
          + " example {}); their files are not counted, running attempts' grants still are",
          scan.unreadable().size(), scan.unreadable().get(0));
    }
    unreadablePaths = scan.unreadable().size();
    LocalizedDevices devices = LocalizedDevices.measure(dirs, cache.dirs());
    synchronized (this) {
      ledger.scanned(scan.bytesByAttempt(), scanNumber);
      sharedCacheDirs = devices.sharedCacheDirs();
      ledger.devicesMeasured(devices.roomBytes(), cache.bytesIn(sharedCacheDirs));
    }
    rebalance();
  }

  /** Brings the pool up to date with what localized data holds, and input data with the pool. */
  private synchronized void rebalance() {
    pool.localizedNow(ledger.usedBytes(clock.getAsLong()), waitingBytes);
    cache.limitInput(pool.inputCapacityBytes());
    cache.poolFigures(pool.freePoolBytes(cache.usedBytes()), pool.localizedBytes());
  }

  public synchronized long localizedBytes() {
    return pool.localizedBytes();
  }

  public synchronized long localizedCapacityBytes() {
    return pool.localizedCapacityBytes();
  }

  /** What share of their requests this node's map attempts wrote ({@link WrittenShare}). */
  public synchronized double writtenShare() {
    return ledger.writtenShare();
  }

  public synchronized int lentUnits() {
    return pool.lentUnits();
  }

  public synchronized int liveAttempts() {
    return ledger.liveAttempts(clock.getAsLong());
  }

  /** The channel task JVMs reach this tuner through. */
  public LocalizedChannel channel() {
    return channel;
  }

  /** Bytes granted to task attempts since start. */
  public long grantedBytes() {
    return grantedBytes.get();
  }

  /** Paths under the localized dirs the last scan could not read (their files are not counted). */
  public int unreadablePaths() {
    return unreadablePaths;
  }

  /** Bytes task attempts asked for and were sent to the HDDs with, since start. */
  public long refusedBytes() {
    return refusedBytes.get();
  }

  /**
   * Stops serving and withdraws the address files, on the scanner's thread after the scan under
   * way, waiting at most the I/O timeout: the DataNode's shutdown does not wait for a hung device.
   */
  @Override
  public void close() {
    if (channel != null) {
      channel.stop();
    }
    if (scans != null) {
      scans.cancel(false);
    }
    if (channel != null) {
      scanner.execute(() -> {
        try {
          channel.withdrawAddress();
        } catch (IOException e) {
          LOG.warn("mpCache: cannot delete the address files in {}; tasks find a channel that"
              + " is gone and write to the HDDs", dirs, e);
        }
      });
    }
    scanner.shutdown();
    try {
      if (!scanner.awaitTermination(ioTimeoutMillis, TimeUnit.MILLISECONDS)) {
        LOG.warn("mpCache: the localized dirs {} did not answer within {} ms; stopping without"
            + " waiting for them", dirs, ioTimeoutMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    scanner.shutdownNow();
  }
}
