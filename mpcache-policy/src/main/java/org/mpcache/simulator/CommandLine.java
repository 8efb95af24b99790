package org.mpcache.simulator;

import java.util.List;

/** The {@code --name value} options of mpCache's command-line tools and benchmarks. */
public final class CommandLine {
  private CommandLine() {
  }

  /**
   * Checks that {@code args} are {@code --name value} pairs with names from {@code known}.
   *
   * @throws IllegalArgumentException naming the first unknown option or missing value
   */
  public static void requireKnown(String[] args, List<String> known) {
    for (int i = 0; i < args.length; i += 2) {
      if (!known.contains(args[i])) {
        throw new IllegalArgumentException("unknown option " + args[i] + " (known: "
            + String.join(" ", known) + ")");
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
    }
  }

  /** The value after {@code name} in {@code args}, or {@code defaultValue}. */
  public static String option(String[] args, String name, String defaultValue) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return defaultValue;
  }
}
