package org.mpcache.tools;

import java.io.PrintStream;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.protocol.RefreshAnswer;

/**
 * {@code -refresh}: every NameNode's master re-reads its configuration files; prints, per
 * master, which of its keys that changed took effect and how (docs/configuration.md).
 */
final class RefreshCommand extends VerbCommand {
  RefreshCommand(PrintStream out, PrintStream err) {
    super(Option.builder("refresh").desc("every NameNode's master re-reads its configuration"
        + " files and applies the master's keys that changed, saying which took effect and which"
        + " need a NameNode restart (HDFS superusers only)").build(), out, err, TIMEOUT);
  }

  @Override
  int run(CommandLine line, Configuration conf, CacheMasters masters) {
    return masters.askEvery("refreshed", master -> refreshed(master.refresh()));
  }

  private static String refreshed(RefreshAnswer answer) {
    StringBuilder text = new StringBuilder();
    appendKeys(text, "in effect now", answer.applied());
    appendKeys(text, "in effect now through a fresh master (it recovers from the slaves; ranks"
        + " and access history start anew)", answer.freshMaster());
    appendKeys(text, "need a NameNode restart", answer.needRestart());
    return text.length() == 0 ? "refreshed, no master key changed" : "refreshed" + text;
  }

  private static void appendKeys(StringBuilder text, String effect, List<String> keys) {
    if (!keys.isEmpty()) {
      text.append("\n  ").append(effect).append(": ").append(String.join(", ", keys));
    }
  }
}
