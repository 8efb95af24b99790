package org.mpcache.tools;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.tools.TableListing;

/**
 * {@code -help [<command>]} and the tool's usage: the usage lists every verb's short usage; help
 * on a verb prints its long usage, {@code -help} alone the usage and every verb's long usage.
 * Exit 0; 2 when a name it is given names no verb.
 */
final class HelpCommand implements AdminCommand {
  private static final Option HELP = Option.builder("help").desc("this help").build();

  private final List<AdminCommand> verbs;
  private final PrintStream out;
  private final PrintStream err;

  HelpCommand(List<AdminCommand> verbs, PrintStream out, PrintStream err) {
    this.verbs = verbs;
    this.out = out;
    this.err = err;
  }

  @Override
  public String getName() {
    return "-" + HELP.getOpt();
  }

  @Override
  public String getShortUsage() {
    return getName() + " [<command>]";
  }

  @Override
  public String getLongUsage() {
    TableListing table = new TableListing.Builder().addField("").addField("", true)
        .hideHeaders().build();
    table.addRow("<command>", "a command, with or without its dash: what it and its options do;"
        + " without one, every command's");
    return getShortUsage() + "\n\n" + table;
  }

  @Override
  public Options getOptions() {
    return new Options().addOption(HELP);
  }

  /** The tool's usage: one line per verb. */
  String toolUsage() {
    StringBuilder usage = new StringBuilder("usage: hdfs mpcacheadmin [generic options]"
        + " <command>\n");
    for (AdminCommand verb : verbs) {
      usage.append("  ").append(verb.getShortUsage()).append('\n');
    }
    return usage.append("  ").append(getShortUsage()).append('\n')
        .append("The master is found at ").append(DFS_MPCACHE_MASTER_ADDRESS_KEY)
        .append(" (with NameNode HA, ").append(DFS_MPCACHE_MASTER_ADDRESS_KEY)
        .append(".<nameservice>.<namenode id>).\n").toString();
  }

  /** Prints the help on each command {@code args} names; with none, the usage and every one's. */
  @Override
  public int run(Configuration conf, List<String> args) {
    List<AdminCommand> commands = new ArrayList<>(verbs);
    commands.add(this);
    List<AdminCommand> named = new ArrayList<>();
    for (String name : args) {
      Optional<AdminCommand> command = commands.stream().filter(candidate -> candidate.getName()
          .equals(name.startsWith("-") ? name : "-" + name)).findFirst();
      if (command.isEmpty()) {
        err.println("mpcacheadmin: -help: no command " + name + " (the commands are "
            + String.join(", ", commands.stream().map(AdminCommand::getName).toList()) + ")");
        return 2;
      }
      named.add(command.get());
    }
    if (args.isEmpty()) {
      out.println(toolUsage());
      named = commands;
    }
    // A blank line between commands: each long usage ends with a line break.
    out.print(String.join("\n", named.stream().map(AdminCommand::getLongUsage).toList()));
    return 0;
  }
}
