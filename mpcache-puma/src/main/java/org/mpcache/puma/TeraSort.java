package org.mpcache.puma;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;

/**
 * tera-sort: sorts the PUMA-IV records by key into globally ordered part files. Keys are uniform
 * printable characters, so ranges of the first character partition them evenly (TeraSort
 * samples the keys to the same end).
 */
final class TeraSort extends BasicBenchmark {
  private static final char LOWEST = '!';
  private static final int KEY_CHARS = 94;

  TeraSort() {
    super("tera-sort", InputSource.PUMA_IV, Identity.class, null, IdentityReduce.class,
        Text.class);
  }

  /** Passes records through: the framework's sort does the work. */
  public static class Identity extends Mapper<Text, Text, Text, Text> {
  }

  public static class IdentityReduce extends Reducer<Text, Text, Text, Text> {
  }

  @Override
  void configure(Job job) {
    job.setInputFormatClass(KeyValueTextInputFormat.class);
    job.setPartitionerClass(FirstCharRange.class);
  }

  /** Partition by ranges of the key's first character. */
  public static class FirstCharRange extends Partitioner<Text, Text> {
    @Override
    public int getPartition(Text key, Text value, int partitions) {
      int first = key.getLength() == 0 ? 0 : (key.getBytes()[0] & 0xff) - LOWEST;
      return Math.max(0, Math.min(partitions - 1, first * partitions / KEY_CHARS));
    }
  }

  @Override
  public void check(Configuration conf, Path input, Path output) throws IOException {
    long[] records = {0};
    Lines.forEach(conf, input, line -> records[0]++);
    long sorted = 0;
    Text previous = null;
    for (Path part : Lines.files(conf, output)) {
      Text[] last = {previous};
      long[] count = {0};
      boolean[] ordered = {true};
      Lines.forEachInFile(conf, part, line -> {
        Text key = new Text(line.substring(0, line.indexOf('\t')));
        ordered[0] &= last[0] == null || last[0].compareTo(key) <= 0;
        last[0] = key;
        count[0]++;
      });
      expect(ordered[0], output, part.getName() + " is not sorted or not after the part before");
      sorted += count[0];
      previous = last[0];
    }
    expect(sorted == records[0], output, sorted + " records sorted, the input has " + records[0]);
  }
}
