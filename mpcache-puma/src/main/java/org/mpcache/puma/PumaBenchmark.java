package org.mpcache.puma;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * One PUMA benchmark: the MapReduce job, the input source it reads, and a check of its output.
 * The harness and {@link PumaDriver} drive every benchmark through this interface only.
 */
public interface PumaBenchmark {
  /** The PUMA name, lower case with dashes: "word-count", "tera-sort", ... */
  String name();

  /** The kind of input the job reads (several benchmarks share one source, hence its data). */
  InputSource source();

  /**
   * A configured, unsubmitted job reading {@code input} (a directory made by
   * {@link InputSource#generate}) and writing {@code output}. The job jar is set by class.
   */
  Job createJob(Configuration conf, Path input, Path output) throws IOException;

  /**
   * How many of the input's {@code splits} the client reads while it creates the job, before any
   * task runs: tera-sort samples keys of its first splits, as TeraSort does. A cache sees those
   * reads before the job's own. None for the other benchmarks.
   */
  default int splitsReadByClient(int splits) {
    return 0;
  }

  /**
   * Checks a finished job's output against its input with a small oracle or an invariant.
   *
   * @throws OutputCheckFailed naming the benchmark, the output and what is wrong
   */
  void check(Configuration conf, Path input, Path output) throws IOException;
}
