package org.mpcache.tools;

import static org.apache.hadoop.tools.TableListing.Justification.RIGHT;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.tools.TableListing;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.SlaveUsage;

/**
 * The verbs that show the active master's report: {@code -report} its slaves, {@code -datasets}
 * its cached data sets; each as a table, or with {@code -json} as JSON.
 */
abstract sealed class ReportCommand extends VerbCommand {
  private ReportCommand(Option verb, PrintStream out, PrintStream err) {
    super(verb, out, err, JSON, TIMEOUT);
  }

  @Override
  final int run(CommandLine line, Configuration conf, CacheMasters masters) {
    boolean json = line.hasOption(JSON);
    return masters.askActive((address, master) -> {
      MasterReport state = master.report();
      if (json) {
        printJson(view(address.toString(), state));
      } else {
        printTable(address, state);
      }
      return 0;
    });
  }

  /** What {@code -json} prints of the report of {@code master}. */
  abstract Object view(String master, MasterReport state);

  abstract void printTable(InetSocketAddress master, MasterReport state);

  /** {@code -report}: per slave, its SSD use, hits and misses, and state. */
  static final class Nodes extends ReportCommand {
    Nodes(PrintStream out, PrintStream err) {
      super(Option.builder("report").desc("per node: capacity, SSD use (input / pool /"
          + " localized), hits, misses, hit ratio, bytes served from SSD and HDD, state").build(),
          out, err);
    }

    /** The JSON of {@code -report}. */
    record NodesView(String master, String state, String policy, List<NodeReport> nodes) {
    }

    @Override
    Object view(String master, MasterReport state) {
      return new NodesView(master, state.state(), state.policy(), state.nodes());
    }

    @Override
    void printTable(InetSocketAddress master, MasterReport state) {
      out.printf("mpCache master %s: %s, policy %s, %d slaves%n%n", master, state.state(),
          state.policy(), state.nodes().size());
      TableListing table = new TableListing.Builder().addField("Node")
          .addField("Capacity", RIGHT).addField("Input", RIGHT).addField("Pool", RIGHT)
          .addField("Localized", RIGHT).addField("Hits", RIGHT).addField("Misses", RIGHT)
          .addField("Hit %", RIGHT).addField("From SSD", RIGHT).addField("From HDD", RIGHT)
          .addField("Heard", RIGHT).addField("To evict", RIGHT).addField("State").build();
      for (NodeReport node : state.nodes()) {
        SlaveUsage usage = node.usage();
        table.addRow(node.hostname(), size(usage.capacityBytes()), size(usage.inputBytes()),
            size(usage.poolBytes()), size(usage.localizedBytes()), "" + usage.hits(),
            "" + usage.misses(), String.format(Locale.ROOT, "%.1f", 100 * usage.hitRatio()),
            size(usage.bytesFromSsd()), size(usage.bytesFromHdd()),
            String.format(Locale.ROOT, "%.1fs", node.lastHeartbeatMillisAgo() / 1000.0),
            "" + node.pendingEvictions(), usage.state());
      }
      out.print(table);
    }
  }

  /** {@code -datasets}: the cached data sets, and with {@code -json} the history of them. */
  static final class DataSets extends ReportCommand {
    DataSets(PrintStream out, PrintStream err) {
      super(Option.builder("datasets").desc("cached data sets: priority, cached / total"
          + " blocks, nodes").build(), out, err);
    }

    /** The JSON of {@code -datasets}. */
    record DataSetsView(String master, String state, String policy,
        List<DataSetReport> dataSets, List<MasterReport.DataSetHistory> history) {
    }

    @Override
    Object view(String master, MasterReport state) {
      return new DataSetsView(master, state.state(), state.policy(), state.dataSets(),
          state.history());
    }

    @Override
    void printTable(InetSocketAddress master, MasterReport state) {
      out.printf("mpCache master %s: %s, policy %s, %d data sets cached%n%n", master,
          state.state(), state.policy(), state.dataSets().size());
      TableListing table = new TableListing.Builder().addField("Data set")
          .addField("Priority", RIGHT).addField("Cached/Total", RIGHT).addField("Nodes")
          .build();
      for (DataSetReport dataSet : state.dataSets()) {
        table.addRow(dataSet.path(), Double.isNaN(dataSet.priority()) ? "-"
            : String.format(Locale.ROOT, "%.3f", dataSet.priority()),
            dataSet.cachedBlocks() + "/" + dataSet.totalBlocks(),
            String.join(",", dataSet.hostnames()));
      }
      out.print(table);
    }
  }
}
