package org.mpcache.bench.harness;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;

/**
 * Drives Hadoop's centralized cache as a PACMan-like in-memory cache: before a job, its input
 * directory gets a cache directive (all or nothing, as PACMan's sticky policy wants); when the
 * RAM budget is short, the least recently used inputs lose theirs. Hadoop itself has no
 * replacement: directives are what an operator would script.
 */
final class MemoryCachePlanner {
  private static final String POOL = "puma";

  private final DistributedFileSystem fs;
  private final long budgetBytes;
  private final Map<Path, long[]> cached = new LinkedHashMap<>(16, 0.75f, true);
  private long usedBytes;

  MemoryCachePlanner(DistributedFileSystem fs, long budgetBytes) throws IOException {
    this.fs = fs;
    this.budgetBytes = budgetBytes;
    fs.addCachePool(new CachePoolInfo(POOL).setLimit(budgetBytes));
  }

  /** Makes {@code input} (of {@code bytes}) cached, evicting older inputs if needed. */
  void beforeJob(Path input, long bytes) throws IOException {
    if (cached.get(input) != null || bytes > budgetBytes) {
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
}
