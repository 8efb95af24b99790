package org.mpcache.tools;

/** The {@code --name value} options of mpCache's command-line tools and benchmarks. */
public final class CommandLine {
  private CommandLine() {
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
