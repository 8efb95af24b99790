package org.mpcache.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code hdfs mpcacheadmin} (the distribution's shell profile adds it; docs/operations.md): finds
 * the one verb a command line names and runs it. The verbs ask the active cache master for the
 * state of every slave ({@code -report}), of the cached data sets ({@code -datasets}), or where a
 * file's blocks are on SSD ({@code -locations}); switch every NameNode's master off or on
 * ({@code -master}) or have each re-read its keys ({@code -refresh}); pin, unpin, free, set the
 * TTL of or load a data set ({@code -pin}, {@code -unpin}, {@code -free}, {@code -ttl},
 * {@code -load}); print the effective value of mpCache keys without asking a master
 * ({@code -getconf}). {@code -help [<command>]} says what they do. Exit code 0, 1 when the verb
 * failed (each says when), 2 on a usage error.
 */
public final class MpCacheAdmin extends Configured implements Tool {
  private final List<AdminCommand> verbs;
  private final HelpCommand help;
  /** Every option of every command: a command line's verb may stand anywhere in it. */
  private final Options everyOption = new Options();
  private final PrintStream err;

  public MpCacheAdmin(Configuration conf) {
    this(conf, System.out, System.err);
  }

  public MpCacheAdmin(Configuration conf, PrintStream out, PrintStream err) {
    super(conf);
    this.err = err;
    List<AdminCommand> all = new ArrayList<>(List.of(new ReportCommand.Nodes(out, err),
        new ReportCommand.DataSets(out, err), new LocationsCommand(out, err),
        new SwitchMasterCommand(out, err), new RefreshCommand(out, err)));
    all.addAll(DataSetCommand.all(out, err));
    all.add(new GetConfCommand(out, err));
    verbs = List.copyOf(all);
    help = new HelpCommand(verbs, out, err);
    Stream.concat(verbs.stream(), Stream.of(help))
        .flatMap(command -> command.getOptions().getOptions().stream())
        .forEach(everyOption::addOption);
  }

  @Override
  public int run(String[] args) throws IOException {
    // Hadoop's form: the command after -help is named without its arguments (-help -ttl).
    if (args.length > 0 && args[0].equals(help.getName())) {
      return help.run(getConf(), List.of(args).subList(1, args.length));
    }
    CommandLine line;
    try {
      line = new DefaultParser().parse(everyOption, args);
    } catch (ParseException e) {
      return usageError(e.getMessage());
    }
    List<AdminCommand> named = verbs.stream().filter(verb -> line.hasOption(verb.getName()))
        .toList();
    if (line.hasOption(help.getName())) {
      return help.run(getConf(), named.stream().map(AdminCommand::getName).toList());
    }
    if (named.size() != 1) {
      return usageError("give one of " + String.join(", ",
          verbs.stream().map(AdminCommand::getName).toList()));
    }
    return named.get(0).run(getConf(), List.of(args));
  }

  private int usageError(String message) {
    err.println("mpcacheadmin: " + message);
    err.print(help.toolUsage());
    return 2;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MpCacheAdmin(new HdfsConfiguration()), args));
  }
}
