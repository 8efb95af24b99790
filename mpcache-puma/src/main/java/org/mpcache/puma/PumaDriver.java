package org.mpcache.puma;

import java.util.Arrays;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code yarn jar mpcache-puma.jar <command>}: generates PUMA inputs, runs a benchmark and checks
 * its output. Exit codes: 0 success, 1 job or check failed, 2 bad usage.
 */
public final class PumaDriver extends Configured implements Tool {
  private static final String USAGE = """
      Usage: yarn jar mpcache-puma.jar [generic options] <command>
        list                                     the benchmarks and their input sources
        generate <source> <dir> <megabytes> [seed]   write a synthetic input
        <benchmark> <input> <output>             run a benchmark, then check its output
        check <benchmark> <input> <output>       check an output
      sources: wikipedia netflix puma-i puma-ii puma-iii puma-iv""";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PumaDriver(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0) {
      return usage("no command");
    }
    try {
      switch (args[0]) {
        case "list":
          PumaBenchmarks.all().forEach(b -> System.out.println(b.name() + "\t"
              + b.source().dirName()));
          return 0;
        case "generate":
          if (args.length < 4 || args.length > 5) {
            return usage("generate takes <source> <dir> <megabytes> [seed]");
          }
          Path dir = new Path(args[2]);
          InputSource.of(args[1]).generate(dir.getFileSystem(getConf()), dir,
              (long) (Double.parseDouble(args[3]) * (1 << 20)),
              args.length == 5 ? Long.parseLong(args[4]) : 1);
          return 0;
        case "check":
          if (args.length != 4) {
            return usage("check takes <benchmark> <input> <output>");
          }
          PumaBenchmarks.byName(args[1]).check(getConf(), new Path(args[2]), new Path(args[3]));
          System.out.println("OK " + args[1]);
          return 0;
        default:
          if (args.length != 3) {
            return usage("a benchmark takes <input> <output>, got " + Arrays.toString(args));
          }
          PumaBenchmark benchmark = PumaBenchmarks.byName(args[0]);
          Job job = benchmark.createJob(getConf(), new Path(args[1]), new Path(args[2]));
          if (!job.waitForCompletion(true)) {
            System.err.println("FAILED " + benchmark.name() + ": the job failed");
            return 1;
          }
          benchmark.check(getConf(), new Path(args[1]), new Path(args[2]));
          System.out.println("OK " + benchmark.name());
          return 0;
      }
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    } catch (OutputCheckFailed e) {
      System.err.println("FAILED " + e.getMessage());
      return 1;
    }
  }

  private static int usage(String problem) {
    System.err.println(problem);
    System.err.println(USAGE);
    return 2;
  }
}
