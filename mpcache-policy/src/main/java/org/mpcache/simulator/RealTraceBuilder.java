package org.mpcache.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.mpcache.policy.DataSet;

/**
 * Builds the trace of a workload read from outside (a SWIM workload, an HDFS audit log): data
 * sets numbered densely as they are first read, their blocks laid out one after another and
 * placed by {@link BlockPlacement}; the node a read goes to when no replica node holds a copy is
 * drawn per read, as in a generated trace; one tenant.
 */
final class RealTraceBuilder {
  private final PolicySimulator.Settings base;
  private final Map<String, Placed> placed = new HashMap<>();
  private final SplittableRandom named;
  private final List<TraceJob> jobs = new ArrayList<>();
  private long nextBlock;

  /** @param base the cluster (nodes, cache and block size) and the seed of the placement */
  RealTraceBuilder(PolicySimulator.Settings base) {
    this.base = base;
    this.named = new SplittableRandom(base.seed() + 1);
  }

  /**
   * A job reads the data set {@code key} of {@code blocks} blocks (as large on every read): the
   * blocks {@code part} lists, ascending, or all of them where it is null.
   */
  void read(String key, int blocks, int[] part) {
    Placed dataSet = placed.get(key);
    if (dataSet == null) {
      dataSet = Placed.of(new DataSet(placed.size(), blocks), nextBlock, base);
      placed.put(key, dataSet);
      nextBlock += blocks;
    } else if (dataSet.dataSet().blocks() != blocks) {
      throw new IllegalArgumentException("data set " + key + " read as " + blocks
          + " blocks, first as " + dataSet.dataSet().blocks());
    }
    int[] namedReplica = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      namedReplica[i] = named.nextInt(PumaWorkload.REPLICATION);
    }
    jobs.add(new TraceJob(dataSet.dataSet(), dataSet.firstBlock(), dataSet.replicas(),
        namedReplica, part));
  }

  /**
   * The trace of the reads so far, on the base settings' cluster, with one tenant.
   *
   * @throws IllegalArgumentException when there were none: nothing to simulate
   */
  Trace build() {
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("the workload read no block: nothing to simulate");
    }
    return Trace.of(new PolicySimulator.Settings(base.nodes(), 1, jobs.size(), base.zipfS(),
        base.cacheMbPerNode(), base.blockMb(), base.seed()), jobs);
  }

  /** A data set's blocks and their replicas, shared by the jobs that read it. */
  private record Placed(DataSet dataSet, long firstBlock, int[] replicas) {
    static Placed of(DataSet dataSet, long firstBlock, PolicySimulator.Settings settings) {
      int[] replicas = new int[dataSet.blocks() * PumaWorkload.REPLICATION];
      int[] block = new int[PumaWorkload.REPLICATION];
      for (int i = 0; i < dataSet.blocks(); i++) {
        BlockPlacement.replicas(settings.nodes(), settings.seed(), firstBlock + i, block);
        System.arraycopy(block, 0, replicas, i * PumaWorkload.REPLICATION, block.length);
      }
      return new Placed(dataSet, firstBlock, replicas);
    }
  }
}
