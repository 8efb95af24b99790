package org.mpcache.slave.inputcache;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_FILL_QUEUE_KEY;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.util.Time;
import org.mpcache.slave.inputcache.store.CachedCopy;
import org.mpcache.slave.inputcache.store.FillFiles;
import org.mpcache.slave.inputcache.store.SsdIoException;
import org.mpcache.slave.inputcache.store.SsdStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes copies: starts a provisional {@link Fill} for a block read from the HDD, asks the arbiter
 * whether to keep it while the bytes flow (never on the reader's thread: a miss is served from
 * the HDD at once and no reader waits for the master), and commits the verified copy if it was
 * admitted and its replica is still the one copied. SSD bytes written for copies the arbiter
 * refused are counted ({@link CacheCounter#PROVISIONAL_BYTES_DISCARDED}).
 */
final class Fills {
  private static final Logger LOG = LoggerFactory.getLogger(Fills.class);
  /** Fills writing at once (a writer thread each); more concurrent misses are not cached. */
  static final int MAX_CONCURRENT_FILLS = 16;
  /**
   * Fills whose reader left early that may wait for their answer and a background thread at
   * once: each holds a writer until the rest is read, and whole-block readers need the others.
   */
  static final int MAX_LEFT_WAITING = MAX_CONCURRENT_FILLS / 2;

  private final CopyIndex index;
  private final SsdStore store;
  private final ReplicaSource replicas;
  private final CacheArbiter arbiter;
  private final CopyReclaimer reclaimer;
  private final DirTrouble trouble;
  private final CacheCounter.Values counters;
  private final long answerWaitMillis;
  private final long ioTimeoutMillis;
  private final ThreadPoolExecutor writers =
      pool(FillThreads.WRITER + "%d", MAX_CONCURRENT_FILLS);
  private final ThreadPoolExecutor admissions = pool("mpcache-admission-%d", MAX_CONCURRENT_FILLS);
  /** Copies for readers that read the replica files themselves; null when turned off. */
  private final ThreadPoolExecutor background;
  private final AtomicInteger leftWaiting = new AtomicInteger();

  Fills(CopyIndex index, SsdStore store, ReplicaSource replicas, CacheArbiter arbiter,
      CopyReclaimer reclaimer, DirTrouble trouble, CacheCounter.Values counters,
      int backgroundThreads, int backgroundQueue, long answerWaitMillis, long ioTimeoutMillis) {
    this.index = index;
    this.store = store;
    this.replicas = replicas;
    this.arbiter = arbiter;
    this.reclaimer = reclaimer;
    this.trouble = trouble;
    this.counters = counters;
    this.answerWaitMillis = answerWaitMillis;
    this.ioTimeoutMillis = ioTimeoutMillis;
    if (backgroundThreads > 0) {
      background = new ThreadPoolExecutor(backgroundThreads, backgroundThreads, 60,
          TimeUnit.SECONDS, new ArrayBlockingQueue<>(Math.max(1, backgroundQueue)),
          new ThreadFactoryBuilder().setDaemon(true)
              .setNameFormat(FillThreads.BACKGROUND + "%d").build());
      background.allowCoreThreadTimeOut(true);
    } else {
      background = null;
    }
  }

  private static ThreadPoolExecutor pool(String names, int threads) {
    return new ThreadPoolExecutor(0, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
        new ThreadFactoryBuilder().setDaemon(true).setNameFormat(names).build());
  }

  SsdStore store() {
    return store;
  }

  /** A fill riding on a reader's pass over the whole block, or null when none starts. */
  Fill startForReader(BlockKey key, LiveReplica replica) {
    return start(key, replica, ioTimeoutMillis);
  }

  /** False when background fills are off. */
  boolean copiesInBackground() {
    return background != null;
  }

  /** Queues a copy made by a background thread, for readers that read the replica files themselves. */
  void startInBackground(BlockKey key, LiveReplica replica) {
    if (background == null || !replica.cacheable(key) || index.isCached(key)) {
      return;
    }
    try {
      background.execute(() -> copyInBackground(key, replica));
    } catch (RejectedExecutionException e) {
      counters.increment(CacheCounter.BACKGROUND_FILLS_DROPPED);
      LOG.debug("mpCache: background fill queue full ({}), not filling {}",
          DFS_MPCACHE_FILL_QUEUE_KEY, key);
    }
  }

  private Fill start(BlockKey key, LiveReplica replica, long producerWaitMillis) {
    if (!replica.cacheable(key)) {
      return null;
    }
    long bytes = replica.length() + estimatedMetaBytes(replica.length());
    CopyIndex.Staging staging = index.stageFill(key, bytes);
    if (staging == null) {
      return null;
    }
    Fill fill = new Fill(key, replica, staging, this, producerWaitMillis);
    try {
      writers.execute(fill);
    } catch (RejectedExecutionException e) {
      LOG.debug("mpCache: {} fills under way already, not caching {}", MAX_CONCURRENT_FILLS, key);
      index.unstage(key, staging);
      return null;
    }
    fill.checksumsRead().whenComplete((read, unverifiable) -> {
      if (unverifiable != null || fill.givenUp()) {
        fill.answer().complete(Admission.REJECTED); // never asked: the arbiter counted nothing
        return;
      }
      try {
        admissions.execute(() -> askArbiter(fill));
      } catch (RejectedExecutionException e) {
        fill.abort("too many admission requests under way");
        fill.answer().complete(Admission.REJECTED);
      }
    });
    return fill;
  }

  /** Checksum bytes of a block with HDFS's default layout (CRC32C per 512 bytes). */
  private static long estimatedMetaBytes(long length) {
    return ChecksumLayout.HEADER_BYTES + (length + 511) / 512 * 4;
  }

  /** Asks whether to keep the copy (the master may take up to its RPC timeout to answer). */
  private void askArbiter(Fill fill) {
    Admission admission;
    try {
      admission = arbiter.requestAdmission(fill.key(), fill.staging().bytes(),
          victims -> index.freeBytesAfter(fill.staging(), victims));
    } catch (RuntimeException e) {
      LOG.warn("mpCache: admission of {} failed; not caching it", fill.key(), e);
      admission = Admission.REJECTED;
    }
    if (admission.admitted()) {
      index.admitted(fill.staging());
      // The arbiter counts the victims gone from now on, whatever becomes of this fill.
      reclaimer.reclaim(index.evict(admission.victims()));
    } else {
      counters.increment(CacheCounter.FILLS_NOT_ADMITTED);
      fill.abort("not admitted");
    }
    fill.answer().complete(admission);
  }

  /**
   * The reader a fill rode on left it before the end of the block ({@code why}): once the
   * arbiter admits the block, a background thread reads the rest from the replica and completes
   * the copy. The arbiter was asked when the reader began, and may have evicted copies for this
   * one; a reader of the first records alone (TeraSort's client samples each split's) would
   * otherwise leave it nothing, and a reader that outran the SSD writer must not ask again (the
   * master would count a second access). A refused block is read no further. Given up as before
   * when background fills are off or their queue is full, and beyond {@link #MAX_LEFT_WAITING}
   * such fills. Never waits: the reader is closing or reading on, and no thread is parked on the
   * master's answer.
   */
  void finishInBackground(Fill fill, String why) {
    if (background == null) {
      fill.abort(why);
      return;
    }
    if (leftWaiting.incrementAndGet() > MAX_LEFT_WAITING) {
      leftWaiting.decrementAndGet();
      counters.increment(CacheCounter.BACKGROUND_FILLS_DROPPED);
      fill.abort(why + ", and " + MAX_LEFT_WAITING + " fills left by their readers wait already");
      return;
    }
    long from = fill.accepted();
    fill.answer().copy().orTimeout(answerWaitMillis, TimeUnit.MILLISECONDS)
        .whenComplete((admission, error) -> {
          if (error != null) {
            warnNoAnswer(fill);
          }
          if (admission != null && admission.admitted() && !fill.givenUp()) {
            feedRest(fill, from, why);
          } else {
            fill.abort(why);
            leftSettled();
          }
        });
  }

  private void feedRest(Fill fill, long from, String why) {
    try {
      background.execute(() -> {
        try {
          feed(fill, from);
        } finally {
          leftSettled();
        }
      });
    } catch (RejectedExecutionException e) {
      counters.increment(CacheCounter.BACKGROUND_FILLS_DROPPED);
      fill.abort(why + ", and the background fill queue is full");
      leftSettled();
    }
  }

  private void leftSettled() {
    leftWaiting.decrementAndGet();
    counters.increment(CacheCounter.FILLS_LEFT_BY_READERS);
  }

  private void copyInBackground(BlockKey key, LiveReplica replica) {
    Fill fill = start(key, replica, ioTimeoutMillis);
    if (fill != null) {
      feed(fill, 0);
    }
  }

  /**
   * Reads the fill's replica from {@code from} to its end into the fill, waiting for its writer.
   * Whatever ends it, the fill is finished or given up: its writer never waits for more.
   */
  private void feed(Fill fill, long from) {
    if (fill.givenUp()) {
      return;
    }
    LiveReplica replica = fill.replica();
    ExtendedBlock block = new ExtendedBlock(fill.key().blockPoolId(), fill.key().blockId(),
        replica.length(), replica.generationStamp());
    try (InputStream data = replicas.openData(block, from)) {
      byte[] buffer = new byte[64 << 10];
      for (int n; (n = data.read(buffer)) > 0;) {
        fill.accept(buffer, 0, n, true);
      }
      fill.finish(true);
    } catch (IOException | RuntimeException e) {
      if (!fill.givenUp()) {
        LOG.warn("mpCache: background copy of {} failed ({}); not caching it", fill.key(),
            e.toString());
      }
      fill.abort("background copy failed: " + e);
    } finally {
      fill.abort("background copy ended early");
    }
  }

  /** The replica's checksum file, for a fill to verify and copy (stock's stream). */
  LengthInputStream openReplicaMeta(BlockKey key, LiveReplica replica) throws IOException {
    return replicas.openMeta(new ExtendedBlock(key.blockPoolId(), key.blockId(),
        replica.length(), replica.generationStamp()));
  }

  // ---- From the writer ---------------------------------------------------------------------

  /** A fill's files are written, closed and verified: commit them if the block was admitted. */
  void written(Fill fill, FillFiles files) {
    if (!awaitAnswer(fill).admitted()) {
      abandoned(fill, files, "not admitted", null);
      return;
    }
    CachedCopy copy;
    try {
      copy = store.commit(files, fill.key(), fill.replica().generationStamp(),
          fill.replica().length(), fill.metaBytes(), Time.monotonicNow());
    } catch (SsdIoException e) {
      abandoned(fill, files, "could not commit: " + e.getMessage(), e);
      return;
    }
    CopyIndex.Offer offer;
    do {
      long changesSeen = index.changes();
      if (!fill.replica().sameBytesAs(replicas.finalizedReplica(fill.key()))) {
        index.unstage(fill.key(), fill.staging());
        offer = CopyIndex.Offer.REFUSED;
        break;
      }
      offer = index.commit(copy, fill.staging(), changesSeen);
    } while (offer == CopyIndex.Offer.RECHECK);
    if (offer != CopyIndex.Offer.TAKEN) {
      LOG.debug("mpCache: {} changed while it was copied, its dir failed, or no room is left;"
          + " not keeping the copy", fill.key());
      if (offer == CopyIndex.Offer.REFUSED) {
        reclaimer.reclaimNow(copy);
      }
      index.forget(fill.key());
      counters.increment(CacheCounter.FILLS_ABORTED);
    }
  }

  private Admission awaitAnswer(Fill fill) {
    try {
      return fill.answer().get(answerWaitMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      warnNoAnswer(fill);
      return Admission.REJECTED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Admission.REJECTED;
    }
  }

  private void warnNoAnswer(Fill fill) {
    LOG.warn("mpCache: no admission answer for {} within {} ms; not caching it", fill.key(),
        answerWaitMillis);
  }

  /**
   * Gives up a fill (its writer calls this once); the reader it was riding on is not affected.
   * {@code ssdError}: the SSD failed, check its dir.
   */
  void abandoned(Fill fill, FillFiles files, String why, IOException ssdError) {
    LOG.debug("mpCache: fill of {} abandoned: {}", fill.key(), why);
    if (files != null) {
      store.discard(fill.staging().dir(), files.data(), files.meta());
    }
    index.unstage(fill.key(), fill.staging());
    // Once it has answered, the arbiter hears the block is not cached, unless it refused it (it
    // never counted it then): a "removed" reaching the master after it admitted a later read of
    // the block would drop that copy from its view.
    fill.answer().whenComplete((admission, error) -> {
      boolean refused = admission != null && !admission.admitted();
      if (!refused) {
        index.forget(fill.key());
      }
      if (admission == null || refused) {
        counters.add(CacheCounter.PROVISIONAL_BYTES_DISCARDED, fill.writtenBytes());
      }
    });
    counters.increment(CacheCounter.FILLS_ABORTED);
    if (ssdError != null) {
      trouble.suspect(fill.staging().dir(), ssdError);
    }
  }

  void close() {
    writers.shutdownNow();
    admissions.shutdownNow();
    if (background != null) {
      background.shutdownNow();
    }
  }
}
