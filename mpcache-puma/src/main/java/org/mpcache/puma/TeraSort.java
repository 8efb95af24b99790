package org.mpcache.puma;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.InputSampler;
import org.apache.hadoop.util.StringUtils;

/**
 * tera-sort: sorts the PUMA-IV (TeraGen) records by their 10-byte keys into part files that are
 * sorted and follow each other in key order, so their concatenation is the sorted input. As in
 * TeraSort, the client samples keys of the input to choose the reducers' key ranges.
 */
final class TeraSort extends BasicBenchmark {
  static final int KEY_BYTES = 10;
  /** A record without its line end: the key and 88 bytes of value. */
  static final int RECORD_CHARS = 98;
  /** The hex-encoded keys that end the reducers' ranges, one fewer than reducers. */
  static final String SPLIT_POINTS_KEY = "puma.tera-sort.split-points";
  private static final int SAMPLES = 10_000;
  private static final int SAMPLED_SPLITS = 10;

  TeraSort() {
    super("tera-sort", InputSource.PUMA_IV, IdentityMapper.class, null, IdentityReducer.class,
        Text.class);
  }

  /** Passes records on: the framework's sort does the work. */
  public static class IdentityMapper extends Mapper<Text, Text, Text, Text> {
  }

  /** Writes the records in the order the shuffle sorted them. */
  public static class IdentityReducer extends Reducer<Text, Text, Text, Text> {
  }

  /** Hadoop's {@code InputSampler.SplitSampler} reads the first of the splits, at most ten. */
  @Override
  public int splitsReadByClient(int splits) {
    return Math.min(splits, SAMPLED_SPLITS);
  }

  @Override
  void configure(Job job) throws IOException {
    job.setInputFormatClass(TeraInputFormat.class);
    job.setOutputFormatClass(TeraOutputFormat.class);
    job.setPartitionerClass(SampledRangePartitioner.class);
    Object[] samples;
    try {
      samples = new InputSampler.SplitSampler<Text, Text>(SAMPLES, SAMPLED_SPLITS)
          .getSample(new TeraInputFormat(), job);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted sampling " + job.getJobName());
    }
    Arrays.sort(samples);
    int reduces = job.getNumReduceTasks();
    String[] splitPoints = new String[samples.length == 0 ? 0 : reduces - 1];
    for (int i = 0; i < splitPoints.length; i++) {
      Text key = (Text) samples[(i + 1) * samples.length / reduces];
      splitPoints[i] = StringUtils.byteToHexString(key.getBytes(), 0, key.getLength());
    }
    job.getConfiguration().setStrings(SPLIT_POINTS_KEY, splitPoints);
  }

  /**
   * Like TeraValidate: every part sorted and starting at or after the end of the part before,
   * records of the TeraGen layout, and the same records as the input (count and digest).
   */
  @Override
  void verify(Configuration conf, Path input, Path output) throws IOException {
    MultisetDigest sorted = new MultisetDigest();
    String[] previous = {""};
    for (Path part : Lines.files(conf, output)) {
      Lines.forEachInFile(conf, part, record -> {
        expect(record.length() == RECORD_CHARS, output, part.getName() + " holds a record of "
            + record.length() + " characters, not " + RECORD_CHARS + ": " + record);
        String key = record.substring(0, KEY_BYTES);
        expect(previous[0].compareTo(key) <= 0, output, "in " + part.getName() + " key '" + key
            + "' follows '" + previous[0] + "'");
        previous[0] = key;
        sorted.add(record);
      });
    }
    expectDigest(Lines.digest(conf, input), sorted, output, "records");
  }

  /** Reads lines as records: the first {@value #KEY_BYTES} bytes the key, the rest the value. */
  public static class TeraInputFormat extends FileInputFormat<Text, Text> {
    @Override
    public RecordReader<Text, Text> createRecordReader(InputSplit split,
        TaskAttemptContext context) {
      return new TeraRecordReader();
    }
  }

  static final class TeraRecordReader extends RecordReader<Text, Text> {
    private final LineRecordReader lines = new LineRecordReader();
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      lines.initialize(split, context);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (!lines.nextKeyValue()) {
        return false;
      }
      Text line = lines.getCurrentValue();
      if (line.getLength() < KEY_BYTES) {
        throw new IOException("not a TeraGen record (shorter than its key): '" + line + "'");
      }
      key.set(line.getBytes(), 0, KEY_BYTES);
      value.set(line.getBytes(), KEY_BYTES, line.getLength() - KEY_BYTES);
      return true;
    }

    @Override
    public Text getCurrentKey() {
      return key;
    }

    @Override
    public Text getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() throws IOException {
      return lines.getProgress();
    }

    @Override
    public void close() throws IOException {
      lines.close();
    }
  }

  /** Writes records in TeraGen's layout: key, value, CR LF. */
  public static class TeraOutputFormat extends FileOutputFormat<Text, Text> {
    private static final byte[] LINE_END = {'\r', '\n'};

    @Override
    public RecordWriter<Text, Text> getRecordWriter(TaskAttemptContext context)
        throws IOException {
      Path file = getDefaultWorkFile(context, "");
      FSDataOutputStream out = file.getFileSystem(context.getConfiguration()).create(file, false);
      return new RecordWriter<>() {
        @Override
        public void write(Text key, Text value) throws IOException {
          out.write(key.getBytes(), 0, key.getLength());
          out.write(value.getBytes(), 0, value.getLength());
          out.write(LINE_END);
        }

        @Override
        public void close(TaskAttemptContext taskContext) throws IOException {
          out.close();
        }
      };
    }
  }

  /**
   * Sends a key to the reducer whose range holds it, the ranges ending at the sampled split
   * points of {@link #SPLIT_POINTS_KEY} (TotalOrderPartitioner's rule, without its file).
   */
  public static class SampledRangePartitioner extends Partitioner<Text, Text>
      implements Configurable {
    private Configuration conf;
    private Text[] splitPoints;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
      String[] hex = conf.getTrimmedStrings(SPLIT_POINTS_KEY);
      splitPoints = new Text[hex.length];
      for (int i = 0; i < hex.length; i++) {
        splitPoints[i] = new Text(StringUtils.hexStringToByte(hex[i]));
      }
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int getPartition(Text key, Text value, int partitions) {
      int found = Arrays.binarySearch(splitPoints, key);
      return Math.min(partitions - 1, found >= 0 ? found + 1 : -found - 1);
    }
  }
}
