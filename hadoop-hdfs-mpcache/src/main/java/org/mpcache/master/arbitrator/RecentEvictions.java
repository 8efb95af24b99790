package org.mpcache.master.arbitrator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The last evictions of whole data sets, newest first, for the status page: a bounded ring, so
 * that the NameNode's heap holds a fixed number of them however many the master makes.
 * Thread-safe.
 */
public final class RecentEvictions {
  /** Evictions kept. */
  static final int KEPT = 100;

  /**
   * A data set's copies the master dropped, when (wall-clock milliseconds), how many nodes held
   * them and why; dataSet is null where it is not shown.
   */
  public record Eviction(long atMillis, String dataSet, int nodes, int copies,
      MasterCounter cause) {
    public Eviction withoutDataSet() {
      return new Eviction(atMillis, null, nodes, copies, cause);
    }
  }

  private final int kept;
  private final LongSupplier wallClock;
  private final ArrayDeque<Eviction> newestFirst = new ArrayDeque<>();

  RecentEvictions(int kept, LongSupplier wallClock) {
    this.kept = kept;
    this.wallClock = wallClock;
  }

  synchronized void record(String dataSet, int nodes, int copies, MasterCounter cause) {
    if (newestFirst.size() == kept) {
      newestFirst.removeLast();
    }
    newestFirst.addFirst(new Eviction(wallClock.getAsLong(), dataSet, nodes, copies, cause));
  }

  synchronized List<Eviction> newestFirst() {
    return new ArrayList<>(newestFirst);
  }
}
