package org.mpcache.policy;

import java.util.List;

/**
 * Whether a missed block of a data set is worth caching at the cost of the copies the policy
 * would evict for it (docs/policies.md, "Admission"). Separate from the replacement policies so
 * that any of them can be measured with or without one ({@code lru+admission}); a policy asks
 * its filter only for misses that need room.
 */
public interface AdmissionFilter {
  /** Admits everything: a policy on its own. */
  AdmissionFilter NONE = new AdmissionFilter() {
    @Override
    public String name() {
      return "none";
    }

    @Override
    public void accessed(DataSet dataSet) {
    }

    @Override
    public boolean admits(DataSet candidate, List<DataSet> victims) {
      return true;
    }
  };

  /** The filter's name in a policy name ({@code <policy>+<filter>}). */
  String name();

  /** A job starts reading the data set (one data-set access). */
  void accessed(DataSet dataSet);

  /**
   * False when no victims could make {@code candidate} worth admitting now (checked before the
   * policy looks for victims, which costs more).
   */
  default boolean mayAdmit(DataSet candidate) {
    return true;
  }

  /**
   * Whether a block of {@code candidate} may be cached at the cost of evicting copies of
   * {@code victims} (each data set once, in the order the policy would evict them).
   */
  boolean admits(DataSet candidate, List<DataSet> victims);

  /** Forgets the data set's record (it holds no copy; its id may name another data set). */
  default void forget(int dataSetId) {
  }

  /** Data sets the filter keeps a record of. */
  default int trackedDataSets() {
    return 0;
  }
}
