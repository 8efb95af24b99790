package org.mpcache.simulator;

import org.mpcache.policy.DataSet;

/**
 * One job of a trace: it reads blocks of {@code dataSet} once each, block {@code i} being
 * {@code firstBlock + i}: all of them in order, or, where {@code part} is given, the blocks it
 * lists (ascending indexes within the data set: some files of a directory, some partitions of a
 * table). {@code replicas} holds each block's replica nodes ({@link PumaWorkload#REPLICATION} per
 * block of the data set, flattened) and {@code named} the index among them of the node the
 * scheduler names when no replica node holds a copy.
 */
public record TraceJob(DataSet dataSet, long firstBlock, int[] replicas, int[] named,
    int[] part) {
  public TraceJob {
    if (named.length != dataSet.blocks()
        || replicas.length != dataSet.blocks() * PumaWorkload.REPLICATION) {
      throw new IllegalArgumentException("job over data set " + dataSet.id() + " of "
          + dataSet.blocks() + " blocks lists " + named.length + " reads and "
          + replicas.length + " replicas");
    }
    if (part != null) {
      if (part.length == 0) {
        throw new IllegalArgumentException("job over data set " + dataSet.id()
            + " reads none of its blocks");
      }
      for (int k = 0; k < part.length; k++) {
        if (part[k] < 0 || part[k] >= dataSet.blocks() || (k > 0 && part[k] <= part[k - 1])) {
          throw new IllegalArgumentException("job over data set " + dataSet.id() + " of "
              + dataSet.blocks() + " blocks reads block " + part[k] + (k > 0 ? " after "
              + part[k - 1] : "") + ": expected ascending blocks of the data set");
        }
      }
      if (part.length == dataSet.blocks()) {
        part = null;
      }
    }
  }

  /** A job that reads its whole data set. */
  public TraceJob(DataSet dataSet, long firstBlock, int[] replicas, int[] named) {
    this(dataSet, firstBlock, replicas, named, null);
  }

  /** Whether the job reads every block of its data set. */
  public boolean readsWhole() {
    return part == null;
  }

  /** How many blocks the job reads. */
  public int reads() {
    return part == null ? dataSet.blocks() : part.length;
  }

  /** The index within the data set of the block its {@code k}-th read reads (in file order). */
  public int readIndex(int k) {
    return part == null ? k : part[k];
  }

  public long block(int index) {
    return firstBlock + index;
  }

  /** The block's replica nodes, in the order the trace lists them. */
  public int replica(int index, int which) {
    return replicas[index * PumaWorkload.REPLICATION + which];
  }

  /** The node a read of the block goes to when no replica node holds a copy. */
  public int namedNode(int index) {
    return replica(index, named[index]);
  }
}
