package org.mpcache.tools;

import java.io.IOException;
import java.util.List;

import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;

/**
 * One verb of {@code hdfs mpcacheadmin}, as Hadoop's admin tools have theirs (AdminHelper.Command
 * of {@code hdfs cacheadmin}). The verb is an option ({@code -report}), so a command line names
 * it anywhere among its other options, as it always could.
 */
interface AdminCommand {
  /** The verb with its dash: {@code -report}. */
  String getName();

  /** One line: the verb, its arguments and its options. */
  String getShortUsage();

  /** The short usage and what the verb and each of its options do ({@code -help <verb>}). */
  String getLongUsage();

  /** Every option the verb takes, its own among them. */
  Options getOptions();

  /** Runs the verb on the whole command line, its own option included; returns the exit code. */
  int run(Configuration conf, List<String> args) throws IOException;
}
