package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The data sets a driver of a policy tracks (the master, the simulator), least recently seen
 * first, and the two ways it forgets them: unseen for long ({@link #unseenSince}), or beyond a
 * cap on how many it tracks ({@link #forgetOverCap}), so that its heap does not grow with what
 * users read (docs/architecture.md, "Forgetting data sets"). Which data sets may go is the
 * driver's to say (one holding copies may not): those it keeps are seen anew, and looked at again
 * only after all the others.
 */
public final class DataSetRecency {
  /**
   * Data sets looked at per data set over the cap, at most: each kept one is seen anew, so the
   * next look goes to others. While more than the cap cannot be forgotten, the tracked ones
   * exceed the cap by them.
   */
  static final int LOOKED_AT_OVER_CAP = 8;

  /** Each data set's id and when it was last seen, least recently first. */
  private final LinkedHashMap<Integer, Long> lastSeen = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * The data set was seen (read, named) at {@code now}; or it is kept, to be looked at again
   * after all the others.
   */
  public void seen(int id, long now) {
    lastSeen.put(id, now);
  }

  /** The data set is no longer tracked. */
  public void forget(int id) {
    lastSeen.remove(id);
  }

  /** Data sets tracked. */
  public int size() {
    return lastSeen.size();
  }

  /** Up to {@code max} data sets last seen before {@code cutoff}, least recently seen first. */
  public List<Integer> unseenSince(long cutoff, int max) {
    List<Integer> idle = new ArrayList<>();
    for (Map.Entry<Integer, Long> seen : lastSeen.entrySet()) {
      if (seen.getValue() >= cutoff || idle.size() == max) {
        break;
      }
      idle.add(seen.getKey());
    }
    return idle;
  }

  /**
   * While more than {@code cap} data sets are tracked, offers the least recently seen to
   * {@code forget} (which forgets it everywhere else and says true, or says false to keep it),
   * {@code spared} (the data set just seen) never, and at most {@link #LOOKED_AT_OVER_CAP} a
   * call: O(1) per data set seen. Returns how many were forgotten.
   */
  public int forgetOverCap(int cap, int spared, long now, IntPredicate forget) {
    int forgotten = 0;
    for (int looked = 0; lastSeen.size() > cap && looked < LOOKED_AT_OVER_CAP; looked++) {
      Iterator<Integer> eldest = lastSeen.keySet().iterator();
      int id = eldest.next();
      if (id == spared) {
        break; // every other one was looked at and kept
      }
      if (forget.test(id)) {
        lastSeen.remove(id);
        forgotten++;
      } else {
        seen(id, now);
      }
    }
    return forgotten;
  }
}
