package org.mpcache.tools;

import java.io.PrintStream;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;

/** {@code -master on|off}: switches every NameNode's cache master off, or back on. */
final class SwitchMasterCommand extends VerbCommand {
  SwitchMasterCommand(PrintStream out, PrintStream err) {
    super(Option.builder("master").hasArg().argName("on|off").desc("switch the cache master of"
        + " every NameNode off (slaves decide on their own; HDFS superusers only) or back on,"
        + " until the NameNode restarts").build(), out, err, TIMEOUT);
  }

  @Override
  int run(CommandLine line, Configuration conf, CacheMasters masters) throws ParseException {
    String value = argument(line);
    if (!List.of("on", "off").contains(value)) {
      throw new ParseException("-master takes on or off, got " + value);
    }
    boolean on = "on".equals(value);
    return masters.askEvery("switched",
        master -> onOff(on) + " (was " + onOff(master.switchMaster(on)) + ")");
  }

  private static String onOff(boolean on) {
    return on ? "on" : "off";
  }
}
