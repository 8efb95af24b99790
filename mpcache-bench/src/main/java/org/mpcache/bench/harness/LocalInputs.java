package org.mpcache.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Arrays;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.DataSet;

/**
 * An embedded cluster's inputs: the local copies of the data sets copied in block by block; the
 * output checks read the local copies.
 */
final class LocalInputs implements StreamInputs {
  /** Bytes per HDFS checksum chunk: a block size must be a multiple of it. */
  private static final long CHECKSUM_CHUNK = 512;

  private final WorkloadMix mix;
  private final long blockBytes;
  private final LocalDataSets local;

  LocalInputs(WorkloadMix mix, long blockBytes, LocalDataSets local) {
    this.mix = mix;
    this.blockBytes = blockBytes;
    this.local = local;
  }

  @Override
  public Path oracle(DataSet dataSet) {
    return local.dir(dataSet);
  }

  /**
   * Copies every data set in, one file (one HDFS block) at a time, each to its node in the
   * {@link StreamPlacement} (favored nodes).
   */
  @Override
  public void place(StreamCluster cluster) throws IOException {
    DistributedFileSystem fs = cluster.fs();
    InetSocketAddress[] nodes = cluster.dataNodeAddresses();
    FileSystem localFs = FileSystem.getLocal(new Configuration());
    StreamPlacement placement = new StreamPlacement(mix, blockBytes);
    for (DataSet dataSet : mix.dataSets()) {
      Path dir = dataSet.dir(cluster.inputs());
      fs.mkdirs(dir);
      FileStatus[] files = localFs.listStatus(local.dir(dataSet),
          path -> !path.getName().startsWith("_"));
      Arrays.sort(files);
      for (int index = 0; index < files.length; index++) {
        FileStatus file = files[index];
        InetSocketAddress node = nodes[placement.node(dataSet, index, nodes.length)];
        // A record may end a little past the block size: the file stays one block.
        long fileBlockBytes = Math.max(blockBytes,
            (file.getLen() + CHECKSUM_CHUNK - 1) / CHECKSUM_CHUNK * CHECKSUM_CHUNK);
        try (InputStream in = localFs.open(file.getPath());
            OutputStream out = fs.create(new Path(dir, file.getPath().getName()),
                FsPermission.getFileDefault(), true, 1 << 16, (short) 1, fileBlockBytes, null,
                new InetSocketAddress[] {node})) {
          IOUtils.copyBytes(in, out, 1 << 16);
        }
      }
    }
  }
}
