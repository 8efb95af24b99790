package org.mpcache.tools;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.SlaveUsage;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code hadoop jar hadoop-hdfs-mpcache.jar org.mpcache.tools.MpCacheAdmin -report|-datasets
 * [-json] | -locations <file>}: asks the active cache master (at
 * {@code dfs.mpcache.master.address}) for the state of every slave, of the cached data sets, or
 * where a file's blocks are on SSD. Exit code 0, or 1 when no active master answered or the file
 * cannot be listed, or 2 on a usage error.
 */
public final class MpCacheAdmin extends Configured implements Tool {
  static final String USAGE = "Usage: mpcacheadmin -report | -datasets [-json]"
      + " | -locations <file>\n"
      + "  -report     per node: capacity, SSD use (input / pool / localized), hits, misses,"
      + " hit ratio, state\n"
      + "  -datasets   cached data sets: priority, cached / total blocks, nodes\n"
      + "  -locations  per block of an HDFS file: its HDD replicas and its SSD copies\n"
      + "  -json       machine-readable output\n"
      + "The master is found at " + DFS_MPCACHE_MASTER_ADDRESS_KEY + ".";

  private final PrintStream out;
  private final PrintStream err;

  public MpCacheAdmin(Configuration conf) {
    this(conf, System.out, System.err);
  }

  public MpCacheAdmin(Configuration conf, PrintStream out, PrintStream err) {
    super(conf);
    this.out = out;
    this.err = err;
  }

  @Override
  public int run(String[] args) throws Exception {
    List<String> arguments = List.of(args);
    boolean json = arguments.contains("-json");
    boolean report = arguments.contains("-report");
    boolean dataSets = arguments.contains("-datasets");
    boolean locations = arguments.size() == 2 && arguments.get(0).equals("-locations");
    if (!locations && (report == dataSets || arguments.size() != (json ? 2 : 1))) {
      err.println(USAGE);
      return 2;
    }
    List<InetSocketAddress> masters;
    try {
      masters = MasterLinkSettings.from(getConf()).masters();
    } catch (InvalidSettingException e) {
      err.println("mpcacheadmin: invalid setting " + e.getMessage());
      return 2;
    }
    if (masters.isEmpty()) {
      err.println("mpcacheadmin: " + DFS_MPCACHE_MASTER_ADDRESS_KEY
          + " is not set: no cache master to ask");
      return 1;
    }
    StringBuilder failures = new StringBuilder();
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
          .connect(getConf(), address, (int) DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS * 5)) {
        if (locations) {
          return printLocations(master, new Path(arguments.get(1)));
        }
        MasterReport state = master.report();
        if (json) {
          Object view = report ? new NodesView(address.toString(), state.state(), state.policy(),
              state.nodes()) : new DataSetsView(address.toString(), state.state(),
              state.policy(), state.dataSets(), state.history());
          out.println(new ObjectMapper().writerWithDefaultPrettyPrinter()
              .writeValueAsString(view));
        } else if (report) {
          printNodes(address, state);
        } else {
          printDataSets(address, state);
        }
        return 0;
      } catch (IOException e) {
        failures.append("\n  ").append(address).append(": ")
            .append(e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0]);
      }
    }
    err.println("mpcacheadmin: no active cache master answered:" + failures);
    return 1;
  }

  /** The JSON of {@code -report}. */
  record NodesView(String master, String state, String policy, List<NodeReport> nodes) {
  }

  /** The JSON of {@code -datasets}. */
  record DataSetsView(String master, String state, String policy, List<DataSetReport> dataSets,
      List<MasterReport.DataSetHistory> history) {
  }

  private void printNodes(InetSocketAddress address, MasterReport state) {
    out.printf("mpCache master %s: %s, policy %s, %d slaves%n%n", address, state.state(),
        state.policy(), state.nodes().size());
    out.printf("%-28s %10s %10s %10s %10s %9s %9s %6s %8s %8s  %s%n", "Node", "Capacity",
        "Input", "Pool", "Localized", "Hits", "Misses", "Hit %", "Heard", "To evict", "State");
    for (NodeReport node : state.nodes()) {
      SlaveUsage usage = node.usage();
      out.printf(Locale.ROOT, "%-28s %10s %10s %10s %10s %9d %9d %6.1f %7.1fs %8d  %s%n",
          node.hostname(), size(usage.capacityBytes()), size(usage.inputBytes()),
          size(usage.poolBytes()), size(usage.localizedBytes()), usage.hits(), usage.misses(),
          100 * usage.hitRatio(), node.lastHeartbeatMillisAgo() / 1000.0,
          node.pendingEvictions(), usage.state());
    }
  }

  private void printDataSets(InetSocketAddress address, MasterReport state) {
    out.printf("mpCache master %s: %s, policy %s, %d data sets cached%n%n", address,
        state.state(), state.policy(), state.dataSets().size());
    out.printf("%-40s %9s %15s  %s%n", "Data set", "Priority", "Cached/Total", "Nodes");
    for (DataSetReport dataSet : state.dataSets()) {
      out.printf(Locale.ROOT, "%-40s %9s %15s  %s%n", dataSet.path(),
          Double.isNaN(dataSet.priority()) ? "-"
              : String.format(Locale.ROOT, "%.3f", dataSet.priority()),
          dataSet.cachedBlocks() + "/" + dataSet.totalBlocks(),
          String.join(",", dataSet.hostnames()));
    }
  }

  /**
   * Each block of {@code file}: offset, length, id, the DataNodes holding its replicas and those
   * holding it on SSD. Returns the exit code.
   */
  private int printLocations(MpCacheMasterProtocol master, Path file) throws IOException {
    FileSystem fs = file.getFileSystem(getConf());
    if (!(fs instanceof DistributedFileSystem dfs)) {
      err.println("mpcacheadmin: " + file + " is not in HDFS (" + fs.getUri() + ")");
      return 1;
    }
    String path = dfs.makeQualified(file).toUri().getPath();
    List<LocatedBlock> blocks;
    try {
      blocks = dfs.getClient().getLocatedBlocks(path, 0, dfs.getFileStatus(file).getLen())
          .getLocatedBlocks();
    } catch (FileNotFoundException e) {
      err.println("mpcacheadmin: no such file " + file);
      return 1;
    }
    List<List<String>> onSsd = master.cachedOn(
        blocks.stream().mapToLong(block -> block.getBlock().getBlockId()).toArray());
    out.printf("%s: %d blocks, %d with an SSD copy%n%n", path, blocks.size(),
        onSsd.stream().filter(holders -> !holders.isEmpty()).count());
    out.printf("%12s %10s  %-24s %-30s %s%n", "Offset", "Length", "Block", "Replicas",
        "SSD copies");
    for (int i = 0; i < blocks.size(); i++) {
      LocatedBlock block = blocks.get(i);
      Map<String, String> hosts = new HashMap<>();
      for (DatanodeInfo replica : block.getLocations()) {
        hosts.put(replica.getDatanodeUuid(), replica.getXferAddr());
      }
      out.printf("%12d %10s  %-24s %-30s %s%n", block.getStartOffset(),
          size(block.getBlockSize()), block.getBlock().getBlockName(),
          String.join(",", hosts.values().stream().sorted().toList()),
          String.join(",", onSsd.get(i).stream().map(uuid -> hosts.getOrDefault(uuid, uuid))
              .sorted().toList()));
    }
    return 0;
  }

  private static String size(long bytes) {
    return StringUtils.byteDesc(bytes).replace(" ", "");
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MpCacheAdmin(new HdfsConfiguration()), args));
  }
}
