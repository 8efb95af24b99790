package org.mpcache.bench.harness;

import org.apache.hadoop.fs.Path;
import org.mpcache.bench.workload.WorkloadMix.DataSet;

/** How a stream's data sets get onto its cluster, and where the output checks read them. */
interface StreamInputs {
  /** Puts every data set of the stream under {@code cluster.inputs()}. */
  void place(StreamCluster cluster) throws Exception;

  /** The copy of {@code dataSet} an output check computes its oracle from: never the cache's. */
  Path oracle(DataSet dataSet);
}
