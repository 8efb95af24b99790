package org.mpcache.puma;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * A benchmark that counts keys: each input line yields keys, the job sums their occurrences with
 * a combiner and writes {@code key<TAB>count}. One mapper serves all of them, so a benchmark is
 * just its {@link #keys} function; the default check recomputes every count from the input.
 */
abstract class CountingBenchmark extends BasicBenchmark {
  /** The keys of one input line, each to be counted once. */
  interface LineKeys {
    List<String> of(String line);
  }

  CountingBenchmark(String name, InputSource source) {
    super(name, source, CountMapper.class, SumReducer.class, SumReducer.class,
        LongWritable.class);
  }

  /** The keys function of a job with configuration {@code conf}. */
  abstract LineKeys keys(Configuration conf);

  @Override
  void verify(Configuration conf, Path input, Path output) throws IOException {
    LineKeys keys = keys(conf);
    Map<String, Long> expected = new HashMap<>();
    Lines.forEach(conf, input, line -> keys.of(line).forEach(k -> expected.merge(k, 1L,
        Long::sum)));
    Map<String, Long> actual = new HashMap<>();
    Lines.forEach(conf, output, line -> {
      int tab = line.lastIndexOf('\t');
      expect(tab > 0, output, "not 'key<TAB>count': " + line);
      Long before = actual.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
      expect(before == null, output, "key written twice: " + line);
    });
    for (Map.Entry<String, Long> entry : expected.entrySet()) {
      expect(entry.getValue().equals(actual.get(entry.getKey())), output, "'" + entry.getKey()
          + "' occurs " + entry.getValue() + " times, the output says "
          + actual.get(entry.getKey()));
    }
    expect(expected.size() == actual.size(), output, actual.size() + " keys where the input has "
        + expected.size());
  }

  /** Emits (key, 1) for every key of a line, with the keys function of the job's benchmark. */
  public static class CountMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text key = new Text();
    private LineKeys keys;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      keys = ((CountingBenchmark) PumaBenchmarks.byName(conf.get(BENCHMARK_KEY))).keys(conf);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String k : keys.of(line.toString())) {
        key.set(k);
        context.write(key, ONE);
      }
    }
  }

  /** Sums counts: the combiner and the reducer. */
  public static class SumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    private final LongWritable sum = new LongWritable();

    @Override
    protected void reduce(Text key, Iterable<LongWritable> counts, Context context)
        throws IOException, InterruptedException {
      long total = 0;
      for (LongWritable count : counts) {
        total += count.get();
      }
      sum.set(total);
      context.write(key, sum);
    }
  }
}
