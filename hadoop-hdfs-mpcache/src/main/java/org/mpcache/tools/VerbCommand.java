package org.mpcache.tools;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.tools.TableListing;
import org.apache.hadoop.util.StringUtils;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A verb whose usages are generated from its commons-cli options. A command line it cannot take
 * is a usage error: exit 2, with a message naming what is wrong above the verb's usage.
 */
abstract class VerbCommand implements AdminCommand {
  static final long DEFAULT_TIMEOUT_MS = DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS * 5;
  static final Option JSON = Option.builder("json").desc("machine-readable output").build();
  static final Option TIMEOUT = Option.builder("timeout").hasArg().argName("duration")
      .desc("how long to wait for each master (default " + DEFAULT_TIMEOUT_MS / 1000
          + "s; 500ms, 2m, ...)").build();
  /** The width the tool's help has always been printed at. */
  private static final int USAGE_WIDTH = 100;

  final PrintStream out;
  final PrintStream err;
  private final Option verb;
  private final List<Option> listed;
  private final Options options = new Options();

  /**
   * @param verb the option that names the verb, its arguments and what it does
   * @param listed the other options its usages show
   */
  VerbCommand(Option verb, PrintStream out, PrintStream err, Option... listed) {
    this.out = out;
    this.err = err;
    this.verb = verb;
    this.listed = List.of(listed);
    options.addOption(verb);
    this.listed.forEach(options::addOption);
    // Every verb takes -timeout, as the tool always has, so that a script may give it to any;
    // the verbs that ask no master do not list it.
    options.addOption(TIMEOUT);
  }

  @Override
  public final String getName() {
    return "-" + verb.getOpt();
  }

  @Override
  public final String getShortUsage() {
    StringBuilder usage = new StringBuilder(syntax(verb));
    listed.forEach(option -> usage.append(" [").append(syntax(option)).append(']'));
    return usage.toString();
  }

  @Override
  public final String getLongUsage() {
    TableListing table = new TableListing.Builder().addField("").addField("", true)
        .wrapWidth(USAGE_WIDTH).hideHeaders().build();
    table.addRow(syntax(verb), verb.getDescription());
    listed.forEach(option -> table.addRow(syntax(option), option.getDescription()));
    return getShortUsage() + "\n\n" + table;
  }

  @Override
  public final Options getOptions() {
    return options;
  }

  @Override
  public final int run(Configuration conf, List<String> args) throws IOException {
    try {
      CommandLine line = new DefaultParser().parse(options, args.toArray(String[]::new));
      if (!line.getArgList().isEmpty()) {
        throw new ParseException("unexpected argument " + line.getArgList().get(0));
      }
      long timeoutMillis = line.hasOption(TIMEOUT) ? positiveMillis(
          line.getOptionValue(TIMEOUT), "-timeout takes a duration above 0 such as 30s or 2m")
          : DEFAULT_TIMEOUT_MS;
      return run(line, conf, new CacheMasters(conf, timeoutMillis, out, err));
    } catch (ParseException e) {
      err.println("mpcacheadmin: " + e.getMessage());
      err.println("usage: hdfs mpcacheadmin [generic options] " + getShortUsage());
      return 2;
    }
  }

  /**
   * Runs the verb on its command line, parsed; returns the exit code.
   *
   * @throws ParseException when the value of one of its options is not one it takes; thrown
   *     before the verb does anything
   */
  abstract int run(CommandLine line, Configuration conf, CacheMasters masters)
      throws ParseException, IOException;

  /** The verb's arguments: the path and duration of {@code -ttl <path> <duration|off>}. */
  final String[] arguments(CommandLine line) {
    return line.getOptionValues(verb);
  }

  /** The verb's first argument, or null when it was given none. */
  final String argument(CommandLine line) {
    return line.getOptionValue(verb);
  }

  final void printJson(Object value) throws IOException {
    out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(value));
  }

  /** A size for a table: 1.5GB. */
  static String size(long bytes) {
    return StringUtils.byteDesc(bytes).replace(" ", "");
  }

  /**
   * A duration as Hadoop's time keys take it (a bare number is milliseconds).
   *
   * @throws ParseException saying {@code complaint} and the value when it is none, or not
   *     above 0
   */
  static long positiveMillis(String value, String complaint) throws ParseException {
    Configuration parsed = new Configuration(false);
    parsed.set("duration", value);
    long millis;
    try {
      millis = parsed.getTimeDuration("duration", 0, TimeUnit.MILLISECONDS);
    } catch (NumberFormatException e) {
      millis = 0;
    }
    if (millis <= 0) {
      throw new ParseException(complaint + ", got " + value);
    }
    return millis;
  }

  /** How an option is written on the command line: {@code -getconf [<key>]}. */
  static String syntax(Option option) {
    if (!option.hasArg()) {
      return "-" + option.getOpt();
    }
    String argument = "<" + option.getArgName() + ">";
    return "-" + option.getOpt() + " "
        + (option.hasOptionalArg() ? "[" + argument + "]" : argument);
  }
}
