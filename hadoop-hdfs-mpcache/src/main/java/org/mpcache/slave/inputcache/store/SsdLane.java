package org.mpcache.slave.inputcache.store;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.util.Time;

/**
 * One SSD dir's I/O lane: a thread for its metadata operations (deletes, checks, scans), so no
 * reader, heartbeat or lock holder ever waits for them, and a watch over every operation in
 * flight on the dir, whichever thread runs it, so that a call the device never answers is
 * noticed ({@link #oldestInFlightMillis}).
 */
public final class SsdLane {
  private final ExecutorService thread;
  private final AtomicLong tokens = new AtomicLong();
  private final ConcurrentHashMap<Long, Long> inFlight = new ConcurrentHashMap<>();

  private final String dir;

  SsdLane(String dir) {
    this.dir = dir;
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new ThreadFactoryBuilder().setDaemon(true)
            .setNameFormat("mpcache-ssd-lane-" + dir.replace('%', '_')).build());
    executor.allowCoreThreadTimeOut(true);
    this.thread = executor;
  }

  /**
   * Runs {@code work} on the lane's thread, after what is queued there. The work's own calls to
   * the device are watched one by one ({@link #track}), not the work as a whole: a long scan is
   * no hung call.
   */
  public <T> Future<T> submit(IoOp<T> work) {
    return thread.submit(work::run);
  }

  /** An operation on the dir starts; pass the token to {@link #end}. */
  private long begin() {
    long token = tokens.incrementAndGet();
    inFlight.put(token, Time.monotonicNow());
    return token;
  }

  private void end(long token) {
    inFlight.remove(token);
  }

  /**
   * Runs one call to the device on the caller's thread, watched; whatever it throws reaches the
   * caller as an {@link SsdIoException} (a fault hook or the JDK may throw unchecked ones too).
   */
  public <T> T track(IoOp<T> op) throws SsdIoException {
    long token = begin();
    try {
      return op.run();
    } catch (SsdIoException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new SsdIoException(dir, e);
    } finally {
      end(token);
    }
  }

  /** How long the oldest operation in flight has been waiting for the device; 0 when none. */
  public long oldestInFlightMillis() {
    long now = Time.monotonicNow();
    long oldest = 0;
    for (long start : inFlight.values()) {
      oldest = Math.max(oldest, now - start);
    }
    return oldest;
  }

  void shutdown() {
    thread.shutdownNow();
  }
}
