package org.mpcache.puma;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The shape every PUMA job shares: files in, a mapper with text keys, an optional combiner, a
 * reducer, text out. A benchmark names its classes, adjusts the job if it must, and writes its
 * check.
 */
abstract class BasicBenchmark implements PumaBenchmark {
  /** Reducers per job (default 2). */
  static final String REDUCES_KEY = "puma.reduces";
  /** The name of the benchmark a job runs, for task classes shared by several benchmarks. */
  static final String BENCHMARK_KEY = "puma.benchmark";

  private final String name;
  private final InputSource source;
  private final Class<? extends Mapper<?, ?, ?, ?>> mapper;
  private final Class<? extends Reducer<?, ?, ?, ?>> combiner;
  private final Class<? extends Reducer<?, ?, ?, ?>> reducer;
  private final Class<?> valueClass;

  /**
   * @param combiner null for none
   * @param valueClass the class of the map output values, and of the output values
   */
  BasicBenchmark(String name, InputSource source, Class<? extends Mapper<?, ?, ?, ?>> mapper,
      Class<? extends Reducer<?, ?, ?, ?>> combiner, Class<? extends Reducer<?, ?, ?, ?>> reducer,
      Class<?> valueClass) {
    this.name = name;
    this.source = source;
    this.mapper = mapper;
    this.combiner = combiner;
    this.reducer = reducer;
    this.valueClass = valueClass;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public InputSource source() {
    return source;
  }

  @Override
  public Job createJob(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "puma " + name);
    job.setJarByClass(getClass());
    job.getConfiguration().set(BENCHMARK_KEY, name);
    job.setMapperClass(mapper);
    if (combiner != null) {
      job.setCombinerClass(combiner);
    }
    job.setReducerClass(reducer);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(valueClass);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(valueClass);
    job.setNumReduceTasks(conf.getInt(REDUCES_KEY, 2));
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    configure(job);
    return job;
  }

  /**
   * Runs {@link #verify}; output it cannot parse fails the check too, instead of escaping as a
   * runtime exception.
   */
  @Override
  public final void check(Configuration conf, Path input, Path output) throws IOException {
    try {
      verify(conf, input, output);
    } catch (RuntimeException e) {
      OutputCheckFailed failed = new OutputCheckFailed(name, output, "cannot read it: " + e);
      failed.initCause(e);
      throw failed;
    }
  }

  /** The check of {@link #check}: fails through {@link #expect} on the first wrong answer. */
  abstract void verify(Configuration conf, Path input, Path output) throws IOException;

  /** Benchmark-specific job settings (formats, partitioner), after the common ones. */
  void configure(Job job) throws IOException {
  }

  /** Fails the check with {@code problem} unless {@code ok}. */
  void expect(boolean ok, Path output, String problem) throws OutputCheckFailed {
    if (!ok) {
      throw new OutputCheckFailed(name, output, problem);
    }
  }

  /** Fails the check unless the output's digest is the one its input implies. */
  void expectDigest(MultisetDigest expected, MultisetDigest actual, Path output, String what)
      throws OutputCheckFailed {
    expect(expected.equals(actual), output, what + ": expected " + expected + ", found "
        + actual);
  }
}
