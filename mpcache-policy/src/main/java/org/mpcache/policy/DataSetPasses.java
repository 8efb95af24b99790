package org.mpcache.policy;

import java.util.HashMap;
import java.util.Map;

/**
 * Finds data-set accesses (a job starting to read a data set) in a stream of block reads, for a
 * master that sees reads and not jobs. A data set's first read starts a pass over it; so does a
 * read of a block the pass has read as often as one job reads it: once for a block that starts
 * its file, twice for any other, since the map whose split ends before it reads on into it up to
 * the end of its last record (docs/policies.md, "Data-set accesses in a running cluster"); and a
 * read of a block new to a pass that has read as many blocks as the data set has (its files
 * replaced under the same directory).
 * Concurrent jobs over one data set therefore count as one access or a few; a re-executed task as
 * an extra one.
 */
public final class DataSetPasses {
  /** Reads of one job: a block that starts its file, any other block. */
  private static final int READS_OF_FILE_START = 1;
  private static final int READS_OF_LATER_BLOCK = 2;

  /** Each pass under way: the reads of each block in it. */
  private final Map<Integer, LongIntMap> passes = new HashMap<>();

  /** Forgets the data set's pass (its id may name another data set). */
  public void forget(int dataSetId) {
    passes.remove(dataSetId);
  }

  /** Data sets with a pass under way. */
  public int tracked() {
    return passes.size();
  }

  /**
   * Records a read of {@code block}; {@code startsFile} when it is its file's first block. True
   * when it starts an access of the data set.
   */
  public boolean read(DataSet dataSet, long block, boolean startsFile) {
    LongIntMap pass = passes.get(dataSet.id());
    int reads = pass == null ? 0 : pass.get(block, 0);
    if (pass == null) {
      pass = new LongIntMap();
      passes.put(dataSet.id(), pass);
    } else if (reads > 0 ? reads < readsByOneJob(startsFile) : pass.size() < dataSet.blocks()) {
      pass.add(block, 1);
      return false;
    } else {
      pass.clear();
    }
    pass.add(block, 1);
    return true;
  }

  private static int readsByOneJob(boolean startsFile) {
    return startsFile ? READS_OF_FILE_START : READS_OF_LATER_BLOCK;
  }
}
