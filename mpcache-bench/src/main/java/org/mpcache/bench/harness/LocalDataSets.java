package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;

/**
 * The mix's data sets on local disk, a file per HDFS block, each written once (a
 * {@code _COMPLETE} marker): what an embedded cluster gets copied in, and what every output
 * check computes its oracle from, a copy no cache ever served.
 */
final class LocalDataSets {
  /** The marker of a data set written whole (here and on an existing cluster). */
  static final String COMPLETE = "_COMPLETE";

  private final WorkloadMix mix;
  private final long blockBytes;
  private final Path root;

  LocalDataSets(WorkloadMix mix, long blockBytes, File dir) {
    this.mix = mix;
    this.blockBytes = blockBytes;
    this.root = new Path(dir.toURI());
  }

  /** Writes each data set of the mix that is not on local disk yet. */
  void generateMissing() throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dir(dataSet);
      if (!fs.exists(new Path(dir, COMPLETE))) {
        BenchmarkHarness.log("generating %s (%d MB)", dir, dataSet.bytes() >> 20);
        fs.delete(dir, true);
        dataSet.source().generate(fs, dir, dataSet.bytes(), dataSet.seed(), blockBytes);
        fs.create(new Path(dir, COMPLETE)).close();
      }
    }
  }

  Path dir(DataSet dataSet) {
    return dataSet.dir(root);
  }
}
