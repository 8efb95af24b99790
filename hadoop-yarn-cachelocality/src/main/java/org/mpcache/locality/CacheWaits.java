package org.mpcache.locality;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tasks waiting for a node that holds their input on SSD, each for at most the same wait from
 * when it asked: pure, the caller brings the clock.
 *
 * @param <T> what identifies a task
 */
public final class CacheWaits<T> {
  private final long waitMillis;
  /** Deadlines in the order tasks started waiting, which is also the order they expire in. */
  private final Map<T, Long> deadlines = new LinkedHashMap<>();

  public CacheWaits(long waitMillis) {
    if (waitMillis <= 0) {
      throw new IllegalArgumentException("wait must be above 0, got " + waitMillis);
    }
    this.waitMillis = waitMillis;
  }

  public long waitMillis() {
    return waitMillis;
  }

  public void start(T task, long nowMillis) {
    deadlines.remove(task);
    deadlines.put(task, nowMillis + waitMillis);
  }

  /** The task no longer waits (it got a node, or it is gone). */
  public boolean end(T task) {
    return deadlines.remove(task) != null;
  }

  public boolean isWaiting(T task) {
    return deadlines.containsKey(task);
  }

  public boolean anyWaiting() {
    return !deadlines.isEmpty();
  }

  /** The tasks whose wait is over at {@code nowMillis}; they no longer wait. */
  public List<T> expire(long nowMillis) {
    List<T> expired = new ArrayList<>();
    for (Iterator<Map.Entry<T, Long>> it = deadlines.entrySet().iterator(); it.hasNext();) {
      Map.Entry<T, Long> entry = it.next();
      if (entry.getValue() > nowMillis) {
        break;
      }
      expired.add(entry.getKey());
      it.remove();
    }
    return expired;
  }
}
