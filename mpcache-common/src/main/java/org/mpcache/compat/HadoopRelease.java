package org.mpcache.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.util.VersionInfo;

/**
 * The Hadoop release line mpCache was built and tested against, and whether the running Hadoop is
 * on it. Each plugin subclasses or reaches into Hadoop internals (docs/architecture.md, "Hadoop
 * internals") that change between release lines, so on another line each says so when it starts
 * and steps aside: the DataNode serves as stock, the NameNode runs no master, jobs run as stock.
 */
public final class HadoopRelease {
  /** The Hadoop version of the build ({@code hadoop.version} of the pom). */
  public static final String BUILT_AGAINST = builtAgainst();
  private static final Pattern LINE = Pattern.compile("^(\\d+\\.\\d+)\\.");

  private HadoopRelease() {
  }

  /**
   * Null when the running Hadoop is on the line built against; otherwise the message the
   * {@code component} logs when it steps aside, naming both versions.
   */
  public static String mismatch(String component) {
    return mismatch(component, BUILT_AGAINST, VersionInfo.getVersion());
  }

  static String mismatch(String component, String built, String running) {
    if (line(built).equals(line(running))) {
      return null;
    }
    return "mpCache was built and tested against Hadoop " + built + " (the " + line(built)
        + " line) and this is Hadoop " + running + ": " + component + " steps aside and runs as"
        + " stock Hadoop (install an mpCache built for Hadoop " + line(running) + ")";
  }

  /** "3.5" of "3.5.0", "3.5.1-SNAPSHOT"; an unparsable version is a line of its own. */
  static String line(String version) {
    Matcher matcher = LINE.matcher(version == null ? "" : version);
    return matcher.find() ? matcher.group(1) : String.valueOf(version);
  }

  private static String builtAgainst() {
    try (InputStream in = HadoopRelease.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        throw new IllegalStateException("org/mpcache/compat/build.properties is missing from"
            + " the mpCache jar");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("hadoop.version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
