package org.mpcache.policy.slave;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Least-recently-used order over cached items with their sizes: the slave's own replacement
 * policy when no master arbitrates. Pure bookkeeping, no I/O; not thread-safe.
 *
 * @param <K> item identity
 */
public final class BlockLru<K> {
  private final LinkedHashMap<K, Long> sizes = new LinkedHashMap<>(16, 0.75f, true);
  private long totalBytes;

  /** Records a newly cached item as the most recently used. */
  public void add(K item, long bytes) {
    Long previous = sizes.put(item, bytes);
    totalBytes += bytes - (previous == null ? 0 : previous);
  }

  /** Marks an item as just used; unknown items are ignored. */
  public void touch(K item) {
    sizes.get(item);
  }

  public void remove(K item) {
    Long bytes = sizes.remove(item);
    if (bytes != null) {
      totalBytes -= bytes;
    }
  }

  /** The item's size, 0 when it is not held. */
  public long bytes(K item) {
    Long bytes = sizes.get(item);
    return bytes == null ? 0 : bytes;
  }

  /** The items held, least recently used first. */
  public List<K> items() {
    return new ArrayList<>(sizes.keySet());
  }

  public boolean contains(K item) {
    return sizes.containsKey(item);
  }

  public long totalBytes() {
    return totalBytes;
  }

  public int size() {
    return sizes.size();
  }

  /**
   * The least recently used items whose sizes add up to at least {@code bytesToFree}, oldest
   * first; all items when they do not add up to that much. Nothing is removed.
   */
  public List<K> victims(long bytesToFree) {
    return victims(bytesToFree, item -> false);
  }

  /** As {@link #victims(long)}, passing over the items {@code skip} accepts. */
  public List<K> victims(long bytesToFree, Predicate<K> skip) {
    List<K> victims = new ArrayList<>();
    long freed = 0;
    for (Iterator<Map.Entry<K, Long>> it = sizes.entrySet().iterator();
        it.hasNext() && freed < bytesToFree;) {
      Map.Entry<K, Long> entry = it.next();
      if (!skip.test(entry.getKey())) {
        victims.add(entry.getKey());
        freed += entry.getValue();
      }
    }
    return victims;
  }
}
