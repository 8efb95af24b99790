package org.mpcache.puma;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.net.NetUtils;

/**
 * Writes PUMA data sets on a cluster with a MapReduce job, one map task per data set, so a
 * cluster gets a job stream's inputs without a local copy to upload: the bytes are those
 * {@link InputSource#generate(FileSystem, Path, long, long, long)} writes for the same source,
 * size, seed and file size. Each file is one HDFS block; with DataNodes given, file {@code i} of
 * a data set is written with the DataNode {@code firstNode + i} (cyclically) as favored node, so
 * the blocks spread evenly as the embedded harness places them.
 */
public final class DataSetGenerator {
  /**
   * Room a file gets past its share of the data set in its one block: it ends with the record
   * that reaches its share (records are a few KB at most).
   */
  private static final long RECORD_SLACK = 1 << 20;
  private static final long CHECKSUM_CHUNK = 512;

  /**
   * One data set to write.
   *
   * @param favoredNodes DataNode transfer addresses (host:port); empty to let HDFS place blocks
   * @param firstNode index in {@code favoredNodes} of the node of the data set's first file
   */
  public record Spec(InputSource source, Path dir, long bytes, long seed, long bytesPerFile,
      List<String> favoredNodes, int firstNode) {
    String line() {
      return String.join("\t", source.dirName(), dir.toString(), Long.toString(bytes),
          Long.toString(seed), Long.toString(bytesPerFile), String.join(",", favoredNodes),
          Integer.toString(firstNode));
    }

    static Spec parse(String line) {
      String[] fields = line.split("\t", -1);
      if (fields.length != 7) {
        throw new IllegalArgumentException("not a data set line: " + line);
      }
      return new Spec(InputSource.of(fields[0]), new Path(fields[1]), Long.parseLong(fields[2]),
          Long.parseLong(fields[3]), Long.parseLong(fields[4]), fields[5].isEmpty() ? List.of()
              : Arrays.asList(fields[5].split(",")), Integer.parseInt(fields[6]));
    }

    /** The favored node of file {@code index}, or null when HDFS places the blocks. */
    InetSocketAddress favoredNode(int index) {
      if (favoredNodes.isEmpty()) {
        return null;
      }
      return NetUtils.createSocketAddr(favoredNodes.get((firstNode + index) % favoredNodes.size()));
    }
  }

  private DataSetGenerator() {
  }

  /**
   * The job that writes {@code specs}; its plan (a line per data set) goes to
   * {@code workDir/plan.txt}. Speculative maps are off: two attempts would write the same files.
   */
  public static Job createJob(Configuration conf, Path workDir, List<Spec> specs)
      throws IOException {
    Path plan = new Path(workDir, "plan.txt");
    FileSystem fs = plan.getFileSystem(conf);
    try (PrintWriter out = new PrintWriter(fs.create(plan, true), false,
        StandardCharsets.UTF_8)) {
      specs.forEach(spec -> out.print(spec.line() + "\n"));
    }
    Job job = Job.getInstance(conf, "mpcache: generate " + specs.size() + " PUMA data sets");
    job.setJarByClass(DataSetGenerator.class);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.addInputPath(job, plan);
    NLineInputFormat.setNumLinesPerSplit(job, 1);
    job.setMapperClass(GenerateMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.getConfiguration().setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    return job;
  }

  /** Block size of a data set's files: each fits in one block. */
  static long blockBytes(long bytesPerFile) {
    long bytes = bytesPerFile + RECORD_SLACK;
    return (bytes + CHECKSUM_CHUNK - 1) / CHECKSUM_CHUNK * CHECKSUM_CHUNK;
  }

  /** Writes the data set of its line (a retried attempt starts the data set over). */
  static final class GenerateMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Spec spec = Spec.parse(line.toString());
      FileSystem fs = spec.dir().getFileSystem(context.getConfiguration());
      fs.delete(spec.dir(), true);
      long blockBytes = blockBytes(spec.bytesPerFile());
      spec.source().generate((path, index) -> {
        context.progress();
        return create(fs, path, blockBytes, spec.favoredNode(index));
      }, spec.dir(), spec.bytes(), spec.seed(), spec.bytesPerFile());
    }

    private static OutputStream create(FileSystem fs, Path path, long blockBytes,
        InetSocketAddress favored) throws IOException {
      short replication = fs.getDefaultReplication(path);
      if (favored != null && fs instanceof DistributedFileSystem dfs) {
        return dfs.create(path, FsPermission.getFileDefault().applyUMask(
            FsPermission.getUMask(fs.getConf())), true, 1 << 16, replication, blockBytes, null,
            new InetSocketAddress[] {favored});
      }
      return fs.create(path, true, 1 << 16, replication, blockBytes);
    }
  }
}
