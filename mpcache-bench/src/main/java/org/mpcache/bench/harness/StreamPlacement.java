package org.mpcache.bench.harness;

import java.util.LinkedHashMap;
import java.util.Map;

import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.puma.InputSource;

/**
 * Where a stream's input blocks live, the same in every configuration and in the stream's
 * simulation: the data sets' files (one block each) numbered in the mix's order, file k on node
 * k mod n. With one replica the NameNode's own choice is random per cluster, and a job whose
 * blocks crowd onto one HDD took up to 40 % longer than the same job in another run.
 */
final class StreamPlacement {
  private final Map<DataSet, Integer> firstFiles = new LinkedHashMap<>();

  StreamPlacement(WorkloadMix mix, long blockBytes) {
    int next = 0;
    for (DataSet dataSet : mix.dataSets()) {
      firstFiles.put(dataSet, next);
      next += InputSource.files(dataSet.bytes(), blockBytes);
    }
  }

  /** The stream-wide number of {@code dataSet}'s first file. */
  int firstFile(DataSet dataSet) {
    Integer first = firstFiles.get(dataSet);
    if (first == null) {
      throw new IllegalArgumentException(dataSet + " is not one of the stream's data sets");
    }
    return first;
  }

  /** The node (0 to {@code nodes} - 1) that holds file {@code index} of {@code dataSet}. */
  int node(DataSet dataSet, int index, int nodes) {
    return (firstFile(dataSet) + index) % nodes;
  }
}
