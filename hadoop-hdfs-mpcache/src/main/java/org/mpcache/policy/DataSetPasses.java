package org.mpcache.policy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Finds data-set accesses (a job starting to read a data set) in a stream of block reads, for a
 * master that sees reads and not jobs: a data set's first read starts a pass over it, and so does
 * a read after its pass covered every block or of a block its pass already read. Concurrent jobs
 * over one data set therefore count as one access or a few; a re-executed task as an extra one.
 */
public final class DataSetPasses {
  private final Map<Integer, Set<Long>> passes = new HashMap<>();

  /** Forgets the data set's pass (its id may name another data set). */
  public void forget(int dataSetId) {
    passes.remove(dataSetId);
  }

  /** Data sets with a pass under way. */
  public int tracked() {
    return passes.size();
  }

  /** Records a read; true when it starts an access of the data set. */
  public boolean read(DataSet dataSet, long block) {
    Set<Long> pass = passes.get(dataSet.id());
    if (pass == null) {
      pass = new HashSet<>();
      passes.put(dataSet.id(), pass);
    } else if (pass.size() < dataSet.blocks() && pass.add(block)) {
      return false;
    } else {
      pass.clear();
    }
    pass.add(block);
    return true;
  }
}
