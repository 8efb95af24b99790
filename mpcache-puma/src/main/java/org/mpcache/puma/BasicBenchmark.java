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
 * The shape every PUMA job shares: text in, a mapper, an optional combiner, a reducer, text out.
 * A benchmark names its classes and writes its check.
 */
abstract class BasicBenchmark implements PumaBenchmark {
  /** Reducers per job unless a benchmark needs a fixed count. */
  public static final String REDUCES_KEY = "puma.reduces";

  private final String name;
  private final InputSource source;
  private final Class<? extends Mapper<?, ?, ?, ?>> mapper;
  private final Class<? extends Reducer<?, ?, ?, ?>> combiner;
  private final Class<? extends Reducer<?, ?, ?, ?>> reducer;
  private final Class<?> mapValue;

  BasicBenchmark(String name, InputSource source, Class<? extends Mapper<?, ?, ?, ?>> mapper,
      Class<? extends Reducer<?, ?, ?, ?>> combiner, Class<? extends Reducer<?, ?, ?, ?>> reducer,
      Class<?> mapValue) {
    this.name = name;
    this.source = source;
    this.mapper = mapper;
    this.combiner = combiner;
    this.reducer = reducer;
    this.mapValue = mapValue;
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
    job.setMapperClass(mapper);
    if (combiner != null) {
      job.setCombinerClass(combiner);
    }
    job.setReducerClass(reducer);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(mapValue);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(conf.getInt(REDUCES_KEY, 2));
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    configure(job);
    return job;
  }

  /** Benchmark-specific job settings (input format, partitioner, reducer count). */
  void configure(Job job) {
  }

  /** Fails the check with {@code problem} unless {@code ok}. */
  void expect(boolean ok, Path output, String problem) throws OutputCheckFailed {
    if (!ok) {
      throw new OutputCheckFailed(name, output, problem);
    }
  }
}
