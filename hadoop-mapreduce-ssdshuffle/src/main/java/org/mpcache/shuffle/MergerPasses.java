package org.mpcache.shuffle;

import java.lang.reflect.Field;

import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.mapred.Merger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@link Merger} writes the passes of a merge with more segments than
 * {@code mapreduce.task.io.sort.factor} (a map's spills, a reduce's on-disk map outputs) through
 * an allocator of its own, a private static field over every local dir: no plugin is asked. A
 * task JVM runs one task at a time, so the hooks set that field to their own allocator when the
 * task starts (docs/architecture.md, "Hadoop internals"; TestMergerPasses fails if the field
 * changes).
 */
final class MergerPasses {
  private static final Logger LOG = LoggerFactory.getLogger(MergerPasses.class);
  /** {@code Merger}'s allocator for the files of its intermediate passes. */
  static final String FIELD = "lDirAlloc";

  private MergerPasses() {
  }

  /**
   * From now on in this JVM, Merger's passes go where {@code allocator} places them; false
   * (and a warning naming the internal) when Hadoop's Merger no longer has the field, and its
   * passes keep Hadoop's placement.
   */
  static boolean placeBy(LocalDirAllocator allocator) {
    try {
      Field field = Merger.class.getDeclaredField(FIELD);
      field.setAccessible(true);
      field.set(null, allocator);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("mpCache: merge passes stay on Hadoop's placement over every local dir: {}.{} "
          + "cannot be set ({})", Merger.class.getName(), FIELD, e.toString());
      return false;
    }
  }
}
