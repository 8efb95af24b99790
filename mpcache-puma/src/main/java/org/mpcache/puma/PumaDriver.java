package org.mpcache.puma;

import java.io.IOException;
import java.util.Locale;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code yarn jar mpcache-puma.jar <command>}: generates PUMA inputs, runs a benchmark and checks
 * its output, so the benchmarks run on a cluster exactly as users submit jobs. Exit codes: 0
 * success, 1 job or check failed, 2 bad usage.
 */
public final class PumaDriver extends Configured implements Tool {
  static final int FAILED = 1;
  static final int BAD_USAGE = 2;
  static final String USAGE = """
      Usage: yarn jar mpcache-puma.jar [generic options] <command>
        list                                        the benchmarks and their input sources
        generate <source> <dir> <megabytes> [seed]  write a synthetic input (seed 1 if not given)
        <benchmark> <input> <output>                run a benchmark, then check its output
        check <benchmark> <input> <output>          check the output of a finished run
      sources: wikipedia netflix puma-i puma-ii puma-iii puma-iv
      options: -D puma.reduces=N (default 2), -D puma.grep.pattern=REGEX (grep's expression)""";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PumaDriver(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    try {
      return execute(args);
    } catch (UsageError e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      return BAD_USAGE;
    } catch (OutputCheckFailed e) {
      System.err.println("FAILED " + e.getMessage());
      return FAILED;
    } catch (IOException e) {
      System.err.println("FAILED " + String.join(" ", args) + ": " + e.getMessage());
      return FAILED;
    }
  }

  private int execute(String[] args) throws Exception {
    if (args.length == 0) {
      throw new UsageError("no command given");
    }
    switch (args[0]) {
      case "help", "-h", "--help" -> {
        System.out.println(USAGE);
        return 0;
      }
      case "list" -> {
        expectArguments(args, 1, "list takes no arguments");
        PumaBenchmarks.all().forEach(b -> System.out.printf(Locale.ROOT, "%-22s %s%n", b.name(),
            b.source().dirName()));
        return 0;
      }
      case "generate" -> {
        return generate(args);
      }
      case "check" -> {
        expectArguments(args, 4, "check takes <benchmark> <input> <output>");
        PumaBenchmark benchmark = benchmark(args[1]);
        benchmark.check(getConf(), new Path(args[2]), new Path(args[3]));
        System.out.println("OK " + benchmark.name());
        return 0;
      }
      default -> {
        PumaBenchmark benchmark = benchmark(args[0]);
        expectArguments(args, 3, benchmark.name() + " takes <input> <output>");
        return runAndCheck(benchmark, new Path(args[1]), new Path(args[2]));
      }
    }
  }

  private int generate(String[] args) throws UsageError, IOException {
    if (args.length != 4 && args.length != 5) {
      throw new UsageError("generate takes <source> <dir> <megabytes> [seed]");
    }
    InputSource source;
    double megabytes;
    long seed;
    try {
      source = InputSource.of(args[1]);
      megabytes = Double.parseDouble(args[3]);
      seed = args.length == 5 ? Long.parseLong(args[4]) : 1;
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    if (!(megabytes >= 0)) {
      throw new UsageError("megabytes must be a number >= 0, not " + args[3]);
    }
    Path dir = new Path(args[2]);
    source.generate(dir.getFileSystem(getConf()), dir, (long) (megabytes * (1 << 20)), seed);
    System.out.println("generated " + source.dirName() + " in " + dir);
    return 0;
  }

  private int runAndCheck(PumaBenchmark benchmark, Path input, Path output) throws Exception {
    long start = System.nanoTime();
    Job job = benchmark.createJob(getConf(), input, output);
    if (!job.waitForCompletion(true)) {
      System.err.println("FAILED " + benchmark.name() + ": job " + job.getJobID() + " ended "
          + job.getJobState() + ": " + job.getStatus().getFailureInfo());
      return FAILED;
    }
    long jobEnd = System.nanoTime();
    benchmark.check(getConf(), input, output);
    System.out.printf(Locale.ROOT, "OK %s (job %.1f s, check %.1f s)%n", benchmark.name(),
        (jobEnd - start) / 1e9, (System.nanoTime() - jobEnd) / 1e9);
    return 0;
  }

  private static PumaBenchmark benchmark(String name) throws UsageError {
    try {
      return PumaBenchmarks.byName(name);
    } catch (IllegalArgumentException e) {
      throw new UsageError("unknown command or benchmark: " + e.getMessage());
    }
  }

  private static void expectArguments(String[] args, int count, String usage)
      throws UsageError {
    if (args.length != count) {
      throw new UsageError(usage);
    }
  }

  /** The command line is wrong: print why and the usage, exit 2. */
  private static final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message);
    }
  }
}
