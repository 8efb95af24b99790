package org.mpcache.simulator;

import org.mpcache.policy.DataSet;

/**
 * One job of a trace: it reads every block of {@code dataSet} once, in order, block {@code i}
 * being {@code firstBlock + i}. {@code replicas} holds each block's replica nodes
 * ({@link PumaWorkload#REPLICATION} per block, flattened) and {@code named} the index among them
 * of the node the scheduler names when no replica node holds a copy.
 */
public record TraceJob(DataSet dataSet, long firstBlock, int[] replicas, int[] named) {
  public TraceJob {
    if (named.length != dataSet.blocks()
        || replicas.length != dataSet.blocks() * PumaWorkload.REPLICATION) {
      throw new IllegalArgumentException("job over data set " + dataSet.id() + " of "
          + dataSet.blocks() + " blocks lists " + named.length + " reads and "
          + replicas.length + " replicas");
    }
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
