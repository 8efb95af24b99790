package org.mpcache.simulator;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The options that set the trace a tool draws or replays ({@link PolicySimulator.Settings}), as
 * the policy simulator and the lab's replay benchmark share them.
 */
public final class TraceOptions {
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
        .valued("trace", "FILE", null, "replay this trace instead of drawing one");
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

  /** The trace the options name (--trace), else the one {@code settings} draw. */
  public static Trace trace(ToolOptions.Values given, PolicySimulator.Settings settings)
      throws IOException {
    return given.has("trace") ? Trace.read(Path.of(given.value("trace")))
        : Trace.generate(settings);
  }
}
