package org.mpcache.bench.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.net.NetUtils;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;
import org.mpcache.puma.DataSetGenerator;

/**
 * An existing cluster's inputs: the data sets it does not hold yet written there by a MapReduce
 * job ({@link DataSetGenerator}; the same bytes as the embedded harness's), each file one block
 * placed as {@link StreamPlacement} says where the caller may list the live DataNodes. They stay
 * for the next stream (a {@code _COMPLETE} marker per data set). The output checks read the
 * local copies, which no cache served.
 */
final class ClusterGeneratedInputs implements StreamInputs {
  private final WorkloadMix mix;
  private final long blockBytes;
  private final LocalDataSets local;

  ClusterGeneratedInputs(WorkloadMix mix, long blockBytes, LocalDataSets local) {
    this.mix = mix;
    this.blockBytes = blockBytes;
    this.local = local;
  }

  @Override
  public void place(StreamCluster cluster) throws Exception {
    FileSystem fs = cluster.fs();
    List<String> nodes = Arrays.stream(cluster.dataNodeAddresses())
        .map(NetUtils::getHostPortString).toList();
    List<DataSetGenerator.Spec> specs = new ArrayList<>();
    StreamPlacement placement = new StreamPlacement(mix, blockBytes);
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = fs.makeQualified(dataSet.dir(cluster.inputs()));
      if (!fs.exists(new Path(dir, LocalDataSets.COMPLETE))) {
        specs.add(new DataSetGenerator.Spec(dataSet.source(), dir, dataSet.bytes(),
            dataSet.seed(), blockBytes, nodes, placement.firstFile(dataSet)));
      }
    }
    if (specs.isEmpty()) {
      return;
    }
    BenchmarkHarness.log("generating %d data sets (%d MB) on the cluster with a MapReduce job, "
        + "blocks placed %s", specs.size(),
        specs.stream().mapToLong(DataSetGenerator.Spec::bytes).sum() >> 20,
        nodes.isEmpty() ? "by HDFS (listing DataNodes needs the HDFS superuser): each data "
            + "set's first replicas on the node of its map"
            : "round-robin over " + nodes.size() + " DataNodes");
    Path work = new Path(cluster.inputs(), "_generate");
    Job job = DataSetGenerator.createJob(cluster.jobConf(), work, specs);
    if (!job.waitForCompletion(false)) {
      throw new IOException("the job that generates the inputs, " + job.getJobID() + ", ended "
          + job.getJobState() + ": " + job.getStatus().getFailureInfo());
    }
    fs.delete(work, true);
    for (DataSetGenerator.Spec spec : specs) {
      fs.create(new Path(spec.dir(), LocalDataSets.COMPLETE)).close();
    }
  }

  @Override
  public Path oracle(DataSet dataSet) {
    return local.dir(dataSet);
  }
}
