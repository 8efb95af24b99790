package org.mpcache.locality;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Tasks waiting for a node that holds their input, each for at most the same wait from when it
 * asked, with what the caller keeps about each: pure, the caller brings the clock.
 *
 * @param <T> what identifies a task
 * @param <V> what the caller keeps about a waiting task
 */
public final class CacheWaits<T, V> {
  private record Entry<V>(V value, long deadlineMillis) {
  }

  private final long waitMillis;
  /** In the order tasks started waiting, which is also the order they expire in. */
  private final Map<T, Entry<V>> waiting = new LinkedHashMap<>();

  public CacheWaits(long waitMillis) {
    if (waitMillis <= 0) {
      throw new IllegalArgumentException("wait must be above 0, got " + waitMillis);
    }
    this.waitMillis = waitMillis;
  }

  public long waitMillis() {
    return waitMillis;
  }

  public void start(T task, V value, long nowMillis) {
    waiting.remove(task);
    waiting.put(task, new Entry<>(value, nowMillis + waitMillis));
  }

  /** The task no longer waits (it got a node, or it is gone): what was kept, or null. */
  public V end(T task) {
    Entry<V> entry = waiting.remove(task);
    return entry == null ? null : entry.value();
  }

  public boolean anyWaiting() {
    return !waiting.isEmpty();
  }

  public int size() {
    return waiting.size();
  }

  /** The task that has waited longest among those whose kept value passes, or null. */
  public T longestWaiting(Predicate<V> test) {
    for (Map.Entry<T, Entry<V>> next : waiting.entrySet()) {
      if (test.test(next.getValue().value())) {
        return next.getKey();
      }
    }
    return null;
  }

  /** The tasks whose wait is over at {@code nowMillis}, in order; they no longer wait. */
  public Map<T, V> expire(long nowMillis) {
    Map<T, V> expired = new LinkedHashMap<>();
    for (Iterator<Map.Entry<T, Entry<V>>> it = waiting.entrySet().iterator(); it.hasNext();) {
      Map.Entry<T, Entry<V>> next = it.next();
      if (next.getValue().deadlineMillis() > nowMillis) {
        break;
      }
      expired.put(next.getKey(), next.getValue().value());
      it.remove();
    }
    return expired;
  }
}
