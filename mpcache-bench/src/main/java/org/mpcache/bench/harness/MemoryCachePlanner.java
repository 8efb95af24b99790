package org.mpcache.bench.harness;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveStats;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;

/**
 * Drives Hadoop's centralized cache as a PACMan-like in-memory cache: before a job, its input
 * directory gets a cache directive (all or nothing, as PACMan's sticky policy wants); when the
 * RAM budget is short, the least recently used inputs lose theirs. Hadoop itself has no
 * replacement: directives are what an operator would script.
 */
final class MemoryCachePlanner {
  private static final String POOL = "puma";
  /** The bench cluster rescans directives and sends cache reports every 500 ms. */
  private static final long POLL_MILLIS = 500;
  private static final long STALL_MILLIS = 15_000;

  private final DistributedFileSystem fs;
  private final long budgetBytes;
  private final Map<Path, long[]> cached = new LinkedHashMap<>(16, 0.75f, true);
  private long usedBytes;

  MemoryCachePlanner(DistributedFileSystem fs, long budgetBytes) throws IOException {
    this.fs = fs;
    this.budgetBytes = budgetBytes;
    fs.addCachePool(new CachePoolInfo(POOL).setLimit(budgetBytes));
  }

  /** Makes {@code input} cached, evicting older inputs if needed. */
  void beforeJob(Path input) throws IOException {
    if (cached.get(input) != null) {
      return;
    }
    // What the NameNode will count against the pool, not the size the mix asked for.
    long bytes = fs.getContentSummary(input).getLength();
    if (bytes > budgetBytes) {
      return;
    }
    Iterator<Map.Entry<Path, long[]>> oldest = cached.entrySet().iterator();
    while (usedBytes + bytes > budgetBytes && oldest.hasNext()) {
      long[] directive = oldest.next().getValue();
      fs.removeCacheDirective(directive[0]);
      usedBytes -= directive[1];
      oldest.remove();
    }
    long id = fs.addCacheDirective(new CacheDirectiveInfo.Builder().setPath(input).setPool(POOL)
        .setReplication((short) 1).build());
    cached.put(input, new long[] {id, bytes});
    usedBytes += bytes;
  }

  /**
   * Waits until the DataNodes have cached what the directives ask for, or have made no progress
   * for {@link #STALL_MILLIS} (a directive may never be met in full, e.g. with blocks larger
   * than a node's share of the budget); returns the bytes cached.
   */
  long awaitCached() throws IOException {
    long cachedBytes = -1;
    long lastProgress = System.currentTimeMillis();
    while (true) {
      long needed = 0;
      long now = 0;
      RemoteIterator<CacheDirectiveEntry> entries = fs.listCacheDirectives(
          new CacheDirectiveInfo.Builder().setPool(POOL).build());
      while (entries.hasNext()) {
        CacheDirectiveStats stats = entries.next().getStats();
        needed += stats.getBytesNeeded();
        now += stats.getBytesCached();
      }
      if (now != cachedBytes) {
        cachedBytes = now;
        lastProgress = System.currentTimeMillis();
      }
      if (now >= needed || System.currentTimeMillis() - lastProgress > STALL_MILLIS) {
        return now;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the in-memory cache");
      }
    }
  }
}
