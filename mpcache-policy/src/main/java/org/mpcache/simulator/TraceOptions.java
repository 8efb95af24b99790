package org.mpcache.simulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The options that set the trace a tool draws or replays ({@link PolicySimulator.Settings}), as
 * the policy simulator and the lab's replay benchmark share them.
 */
public final class TraceOptions {
  /** The options that each name a trace to replay. */
  private static final List<String> REPLAYED = List.of("trace", "swim", "audit-log");

  private TraceOptions() {
  }

  /** Declares the trace's options on {@code options}, blocks of {@code blockMb} by default. */
  public static ToolOptions declare(ToolOptions options, int blockMb) {
    return options
        .valued("nodes", "N", "7", "nodes of the simulated cluster")
        .valued("tenants", "N", null, "copies of the data, each job reading one tenant's "
            + "(default nodes / 7, at least 1)")
        .valued("s", "S", "1", "Zipf parameter of the input scale k (Equation (3))")
        .valued("cache-gb", "GB", "80", "SSD cache per node")
        .valued("block-mb", "MB", Integer.toString(blockMb), "block size of the trace")
        .valued("seed", "SEED", "1", "the trace's seed")
        .valued("trace", "FILE", null, "replay this trace instead of drawing one")
        .valued("swim", "FILE", null, "replay a SWIM workload with input paths instead of "
            + "drawing a trace (docs/policies.md, \"Real workloads\")")
        .valued("data-set", "READING", SwimTrace.DataSetReading.PATH.option(), "with --swim, "
            + "what a data set is: path (an input path, read whole at the largest size a job "
            + "read it with), path-part (the same, each job reading as many of its blocks as its "
            + "input holds) or path-size (an input path read with one size)")
        .valued("part", "CHOICE", PartialRead.NEWEST.option(), "with --data-set path-part, the "
            + "blocks a job reads of a larger data set: prefix, newest or random")
        .valued("samples", "FROM-TO", "0-" + (SwimTrace.SAMPLES - 1), "with --swim, the "
            + "workload's hourly samples to replay")
        .valued("audit-log", "FILE", null, "replay the reads an HDFS audit log records instead"
            + " of drawing a trace, with --listing (docs/policies.md, \"Real workloads\")")
        .valued("listing", "FILE", null, "with --audit-log, the namespace's files and sizes: "
            + "'hdfs oiv -p Delimited' output")
        .valued("job-gap", "SECONDS", "60", "with --audit-log, a pause in an application's or"
            + " user's opens that starts another job");
  }

  /** {@code --samples}: the first and last hourly sample of a SWIM workload to replay. */
  static int[] samples(ToolOptions.Values given) {
    String samples = given.value("samples");
    String[] range = samples.split("-", -1);
    try {
      if (range.length > 2) {
        throw new NumberFormatException();
      }
      return new int[] {Integer.parseInt(range[0].trim()),
          Integer.parseInt(range[range.length - 1].trim())};
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--samples " + samples + ": expected hours such as"
          + " 0-11 or 5", e);
    }
  }

  /** {@code --data-set}: what a data set of a SWIM workload is. */
  static SwimTrace.DataSetReading reading(ToolOptions.Values given) {
    return SwimTrace.DataSetReading.of(given.value("data-set"));
  }

  /**
   * Whether the options name a trace to replay (--trace, --swim or --audit-log) rather than
   * draw one.
   */
  public static boolean replays(ToolOptions.Values given) {
    return REPLAYED.stream().anyMatch(given::has);
  }

  /** The settings of a trace of {@code jobs} jobs whose sources shift every {@code shift}. */
  public static PolicySimulator.Settings settings(ToolOptions.Values given, int jobs,
      int shift) {
    int nodes = Integer.parseInt(given.value("nodes"));
    return new PolicySimulator.Settings(nodes,
        given.has("tenants") ? Integer.parseInt(given.value("tenants")) : Math.max(1, nodes / 7),
        jobs, Double.parseDouble(given.value("s")),
        Long.parseLong(given.value("cache-gb")) * 1024,
        Integer.parseInt(given.value("block-mb")),
        Long.parseLong(given.value("seed")), shift);
  }

  /**
   * The trace the options name (--trace; --swim or --audit-log on the cluster and cache
   * {@code settings} give, saying on {@code notes} what the audit log's reading left out), else
   * the one {@code settings} draw.
   */
  public static Trace trace(ToolOptions.Values given, PolicySimulator.Settings settings,
      PrintStream notes) throws IOException {
    if (REPLAYED.stream().filter(given::has).count() > 1) {
      throw new IllegalArgumentException("--trace, --swim and --audit-log each name the trace to"
          + " replay: give one");
    }
    for (String swimOnly : List.of("data-set", "part", "samples")) {
      if (given.has(swimOnly) && !given.has("swim")) {
        throw new IllegalArgumentException("--" + swimOnly + " shapes a SWIM workload: give it"
            + " with --swim");
      }
    }
    if (given.has("job-gap") && !given.has("audit-log")) {
      throw new IllegalArgumentException("--job-gap groups an audit log's opens: give it with"
          + " --audit-log");
    }
    if (given.has("audit-log") != given.has("listing")) {
      throw new IllegalArgumentException("--audit-log and --listing go together: the log names"
          + " the files read, the listing their sizes");
    }
    if (given.has("audit-log")) {
      long gap;
      try {
        gap = Long.parseLong(given.value("job-gap"));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--job-gap " + given.value("job-gap") + ": expected"
            + " seconds", e);
      }
      AuditLogTrace.Reading reading = AuditLogTrace.read(Path.of(given.value("audit-log")),
          Path.of(given.value("listing")), gap, settings);
      notes.println(reading.describe());
      return reading.trace();
    }
    if (given.has("swim")) {
      int[] samples = samples(given);
      return SwimTrace.trace(SwimTrace.read(Path.of(given.value("swim"))), reading(given),
          PartialRead.of(given.value("part")), samples[0], samples[1], settings);
    }
    return given.has("trace") ? Trace.read(Path.of(given.value("trace")))
        : Trace.generate(settings);
  }
}
