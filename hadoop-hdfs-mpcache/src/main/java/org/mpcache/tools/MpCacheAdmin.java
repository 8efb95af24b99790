package org.mpcache.tools;

import static org.apache.hadoop.tools.TableListing.Justification.RIGHT;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.StandbyException;
import org.apache.hadoop.tools.TableListing;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.conf.MpCacheConfiguration;
import org.mpcache.conf.MpCacheKeyRegistry;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.MpCacheMasterProtocol.ControlOp;
import org.mpcache.protocol.RefreshAnswer;
import org.mpcache.protocol.SlaveUsage;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code hdfs mpcacheadmin} (the distribution's shell profile adds it): asks the active cache
 * master for the state of every slave ({@code -report}), of the cached data sets
 * ({@code -datasets}), or where a file's blocks are on SSD ({@code -locations}); switches every
 * NameNode's master off or on ({@code -master}) or has each re-read its keys ({@code -refresh});
 * pins, unpins, frees a data set or sets its TTL ({@code -pin}, {@code -unpin}, {@code -free},
 * {@code -ttl}), loads one onto the SSDs ({@code -load}; docs/operations.md); prints the
 * effective value of mpCache keys without asking a master ({@code -getconf}: {@code hdfs getconf}
 * loads no mpcache-default.xml). Exit code 0, 1 when no active master answered, the active one
 * refused, a master was not switched or refreshed, the file cannot be listed, a waited-for load
 * left blocks uncached or the key is not mpCache's, 2 on a usage error.
 */
public final class MpCacheAdmin extends Configured implements Tool {
  static final long DEFAULT_TIMEOUT_MS = DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS * 5;
  private static final Options OPTIONS = new Options()
      .addOption(Option.builder("report").desc("per node: capacity, SSD use (input / pool /"
          + " localized), hits, misses, hit ratio, bytes served from SSD and HDD, state").build())
      .addOption(Option.builder("datasets").desc("cached data sets: priority, cached / total"
          + " blocks, nodes").build())
      .addOption(Option.builder("locations").hasArg().argName("path").desc("per block of an HDFS"
          + " file: its HDD replicas and its SSD copies").build())
      .addOption(Option.builder("master").hasArg().argName("on|off").desc("switch the cache"
          + " master of every NameNode off (slaves decide on their own; HDFS superusers only) or"
          + " back on, until the NameNode restarts").build())
      .addOption(Option.builder("refresh").desc("every NameNode's master re-reads its"
          + " configuration files and applies the master's keys that changed, saying which took"
          + " effect and which need a NameNode restart (HDFS superusers only)").build())
      .addOption(Option.builder("pin").hasArg().argName("path").desc("pin the data set at path"
          + " (or holding the file at path): never evicted, kept on the path in the namespace;"
          + " HDFS superusers only").build())
      .addOption(Option.builder("unpin").hasArg().argName("path").desc("unpin it: the policy"
          + " ranks its copies again").build())
      .addOption(Option.builder("free").hasArg().argName("path").desc("every copy of the data"
          + " set leaves the SSDs, at each slave's next heartbeat").build())
      .addOption(Option.builder("ttl").numberOfArgs(2).argName("path> <duration|off")
          .desc("a data set unread for longer than the duration (30m, 2h, 7d) leaves the cache;"
          + " off clears it").build())
      .addOption(Option.builder("load").hasArg().argName("path").desc("copy the data set's"
          + " blocks to the SSD of a node holding a replica of each, a few at a time per node;"
          + " the replacement policy admits each as a read's (pin first to keep them all)")
          .build())
      .addOption(Option.builder("wait").desc("with -load: print its progress until every block"
          + " is settled; exit 1 if some are not cached").build())
      .addOption(Option.builder("getconf").hasArg().optionalArg(true).argName("key")
          .desc("the value the daemons and this tool read for an mpCache key (site files over"
          + " mpcache-default.xml); without a key, every key").build())
      .addOption(Option.builder("json").desc("machine-readable output of -report, -datasets,"
          + " -pin, -unpin, -free, -ttl, -load or -getconf").build())
      .addOption(Option.builder("timeout").hasArg().argName("duration").desc("how long to wait"
          + " for each master (default " + DEFAULT_TIMEOUT_MS / 1000 + "s; 500ms, 2m, ...)")
          .build())
      .addOption(Option.builder("help").desc("this help").build());
  static final String USAGE = usage();

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
    CommandLine command;
    long timeoutMillis;
    long ttl;
    try {
      command = new DefaultParser().parse(OPTIONS, args);
      if (command.hasOption("help")) {
        out.print(USAGE);
        return 0;
      }
      long actions = Stream.concat(Stream.of("report", "datasets", "locations", "master",
          "refresh", "getconf"),
          CONTROLS.keySet().stream()).filter(command::hasOption).count();
      if (actions != 1) {
        throw new ParseException("give one of -report, -datasets, -locations <path>,"
            + " -master on|off, -refresh, -pin|-unpin|-free|-load <path>,"
            + " -ttl <path> <duration|off>, -getconf [key]");
      }
      if (command.hasOption("wait") && !command.hasOption("load")) {
        throw new ParseException("-wait goes with -load");
      }
      if (command.hasOption("master")
          && !List.of("on", "off").contains(command.getOptionValue("master"))) {
        throw new ParseException("-master takes on or off, got "
            + command.getOptionValue("master"));
      }
      if (!command.getArgList().isEmpty()) {
        throw new ParseException("unexpected argument " + command.getArgList().get(0));
      }
      if (command.hasOption("json")
          && (command.hasOption("locations") || command.hasOption("master")
              || command.hasOption("refresh"))) {
        throw new ParseException("-json goes with -report, -datasets, -pin, -unpin, -free,"
            + " -ttl, -load or -getconf");
      }
      timeoutMillis = timeoutMillis(command.getOptionValue("timeout"));
      ttl = command.hasOption("ttl") ? ttlMillis(command.getOptionValues("ttl")[1]) : 0;
    } catch (ParseException e) {
      err.println("mpcacheadmin: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    if (command.hasOption("getconf")) {
      return printConf(command.getOptionValue("getconf"), command.hasOption("json"));
    }
    List<InetSocketAddress> masters;
    try {
      masters = MasterLinkSettings.from(getConf()).masters();
    } catch (InvalidSettingException e) {
      err.println("mpcacheadmin: invalid setting " + e.getMessage());
      return 2;
    }
    if (masters.isEmpty()) {
      err.println("mpcacheadmin: " + DFS_MPCACHE_MASTER_ADDRESS_KEY + " (or, with NameNode HA, "
          + DFS_MPCACHE_MASTER_ADDRESS_KEY + ".<nameservice>.<namenode id>) is not set: no cache"
          + " master to ask");
      return 1;
    }
    int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    if (command.hasOption("master")) {
      boolean on = "on".equals(command.getOptionValue("master"));
      return onEveryMaster(masters, timeout, "switched",
          master -> switched(on, master.switchMaster(on)));
    }
    if (command.hasOption("refresh")) {
      return onEveryMaster(masters, timeout, "refreshed",
          master -> refreshed(master.refresh()));
    }
    String control = CONTROLS.keySet().stream().filter(command::hasOption).findFirst()
        .orElse(null);
    boolean json = command.hasOption("json");
    StringBuilder failures = new StringBuilder();
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
          .connect(getConf(), address, timeout)) {
        if (command.hasOption("locations")) {
          return printLocations(master, new Path(command.getOptionValue("locations")));
        }
        if (control != null) {
          return control(master, CONTROLS.get(control), command.getOptionValue(control), ttl,
              json, command.hasOption("wait"));
        }
        MasterReport state = master.report();
        boolean report = command.hasOption("report");
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
      } catch (RemoteException e) {
        if (!StandbyException.class.getName().equals(e.getClassName())
            && !String.valueOf(e.getMessage()).contains(MpCacheMasterProtocol.SWITCHED_OFF)) {
          // The active master answered and refused: no other one would do better.
          err.println("mpcacheadmin: mpCache master " + address + ": " + firstLine(e));
          return 1;
        }
        failures.append("\n  ").append(address).append(": ").append(firstLine(e));
      } catch (IOException e) {
        failures.append("\n  ").append(address).append(": ").append(firstLine(e));
      }
    }
    err.println("mpcacheadmin: no active cache master answered:" + failures);
    return 1;
  }

  /** The admin tool's options that steer a data set, and what each asks the master. */
  private static final Map<String, ControlOp> CONTROLS = Map.of("pin", ControlOp.PIN,
      "unpin", ControlOp.UNPIN, "free", ControlOp.FREE, "ttl", ControlOp.TTL,
      "load", ControlOp.LOAD);
  /** How often {@code -load -wait} asks for the load's progress. */
  private static final long LOAD_POLL_MS = 1_000;

  /**
   * Steers the data set at {@code path} and prints it as it then stands; with {@code wait}, as it
   * stands each time its load's progress changes, until nothing of it is loading.
   */
  private int control(MpCacheMasterProtocol master, ControlOp op, String path, long ttlMillis,
      boolean json, boolean wait) throws IOException {
    String absolute = absolute(new Path(path));
    ControlAnswer answer = master.control(op, absolute, ttlMillis);
    print(answer, json);
    if (!wait) {
      return 0;
    }
    while (answer.loadingBlocks() > 0) {
      try {
        Thread.sleep(LOAD_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
      ControlAnswer now = master.control(ControlOp.STATUS, absolute, 0);
      if (!now.equals(answer)) {
        print(now, json);
      }
      answer = now;
    }
    if (answer.cachedBlocks() < answer.totalBlocks()) {
      err.printf("mpcacheadmin: %d of %d blocks of %s are not cached (%d refused by the"
          + " replacement policy; pin the data set to keep it whole; the rest had no replica on a"
          + " node with a cache slave, or their copy failed: see the DataNodes' logs)%n",
          answer.totalBlocks() - answer.cachedBlocks(), answer.totalBlocks(), answer.dataSet(),
          answer.refusedBlocks());
      return 1;
    }
    return 0;
  }

  private void print(ControlAnswer answer, boolean json) throws IOException {
    if (json) {
      out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(answer));
      return;
    }
    out.printf("%s: %s, TTL %s, %d/%d blocks cached%s%s%n", answer.dataSet(),
        answer.pinned() ? "pinned" : "not pinned", answer.ttlMillis() == 0 ? "none"
            : StringUtils.formatTime(answer.ttlMillis()), answer.cachedBlocks(),
        answer.totalBlocks(),
        answer.loadingBlocks() > 0 ? ", " + answer.loadingBlocks() + " loading" : "",
        answer.refusedBlocks() > 0 ? ", " + answer.refusedBlocks() + " refused by the policy"
            : "");
  }

  /** The path as the master reads it: absolute, in the default file system's namespace. */
  private String absolute(Path path) throws IOException {
    return path.getFileSystem(getConf()).makeQualified(path).toUri().getPath();
  }

  /** A TTL: {@code off}, or a duration as Hadoop's time keys take it (a bare number is ms). */
  private static long ttlMillis(String value) throws ParseException {
    if ("off".equals(value)) {
      return 0;
    }
    try {
      return positiveMillis(value);
    } catch (NumberFormatException e) {
      throw new ParseException("-ttl takes a path and a duration above 0 (30m, 2h, 7d) or off,"
          + " got " + value);
    }
  }

  /**
   * The value of {@code key} as the daemons read it, or with no key every key's; an unknown key
   * is refused rather than printed empty, so that a misspelt name is not taken for an unset one.
   */
  @SuppressWarnings("deprecation") // names the old heartbeat key where it still counts
  private int printConf(String key, boolean json) throws IOException {
    if (key != null && !MpCacheKeyRegistry.isKnown(key)) {
      err.println("mpcacheadmin: " + key + " is not an mpCache key (hdfs mpcacheadmin -getconf"
          + " lists them; hdfs getconf -confKey reads Hadoop's own)");
      return 1;
    }
    Configuration effective = MpCacheConfiguration.withDefaults(getConf());
    Map<String, String> values = key == null ? MpCacheKeyRegistry.effectiveValues(effective)
        : Map.of(key, effective.get(key, ""));
    if (json) {
      out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(values));
    } else if (key != null) {
      out.println(values.get(key));
    } else {
      TableListing table = new TableListing.Builder().addField("Key").addField("Value").build();
      values.forEach(table::addRow);
      out.print(table);
    }
    return 0;
  }

  /** A call on one master that says what came of it. */
  @FunctionalInterface
  private interface MasterCall {
    String on(MpCacheMasterProtocol master) throws IOException;
  }

  /**
   * Makes {@code call} on every NameNode's master, active or standby, so that a failover keeps
   * what it did; prints each one's answer, and why for each that did not take it ({@code verb}).
   */
  private int onEveryMaster(List<InetSocketAddress> masters, int timeoutMillis, String verb,
      MasterCall call) {
    int exit = 0;
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
          .connect(getConf(), address, timeoutMillis)) {
        out.printf("mpCache master %s: %s%n", address, call.on(master));
      } catch (IOException e) {
        err.println("mpcacheadmin: mpCache master " + address + " was not " + verb + ": "
            + firstLine(e));
        exit = 1;
      }
    }
    return exit;
  }

  private static String switched(boolean on, boolean wasOn) {
    return (on ? "on" : "off") + " (was " + (wasOn ? "on" : "off") + ")";
  }

  /** What a refresh did, key by key (docs/configuration.md). */
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

  private static String firstLine(IOException e) {
    return e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
  }

  /** {@code -timeout}'s value, or the default. */
  private static long timeoutMillis(String value) throws ParseException {
    if (value == null) {
      return DEFAULT_TIMEOUT_MS;
    }
    try {
      return positiveMillis(value);
    } catch (NumberFormatException e) {
      throw new ParseException("-timeout takes a duration above 0 such as 30s or 2m, got "
          + value);
    }
  }

  /**
   * A duration as Hadoop's time keys take it (a bare number is milliseconds).
   *
   * @throws NumberFormatException when it is none, or not above 0
   */
  private static long positiveMillis(String value) {
    Configuration parsed = new Configuration(false);
    parsed.set("duration", value);
    long millis = parsed.getTimeDuration("duration", 0, TimeUnit.MILLISECONDS);
    if (millis <= 0) {
      throw new NumberFormatException(value);
    }
    return millis;
  }

  private static String usage() {
    StringWriter text = new StringWriter();
    PrintWriter writer = new PrintWriter(text);
    new HelpFormatter().printHelp(writer, 100, "hdfs mpcacheadmin [generic options]"
        + " -report [-json] | -datasets [-json] | -locations <path> | -master on|off | -refresh"
        + " | -pin|-unpin|-free <path> [-json] | -ttl <path> <duration|off> [-json]"
        + " | -load <path> [-wait] [-json] | -getconf [key] [-json]", null,
        OPTIONS, 2, 2,
        "The master is found at " + DFS_MPCACHE_MASTER_ADDRESS_KEY + " (with NameNode HA, "
        + DFS_MPCACHE_MASTER_ADDRESS_KEY + ".<nameservice>.<namenode id>).");
    writer.flush();
    return text.toString();
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

  private void printDataSets(InetSocketAddress address, MasterReport state) {
    out.printf("mpCache master %s: %s, policy %s, %d data sets cached%n%n", address,
        state.state(), state.policy(), state.dataSets().size());
    TableListing table = new TableListing.Builder().addField("Data set")
        .addField("Priority", RIGHT).addField("Cached/Total", RIGHT).addField("Nodes").build();
    for (DataSetReport dataSet : state.dataSets()) {
      table.addRow(dataSet.path(), Double.isNaN(dataSet.priority()) ? "-"
          : String.format(Locale.ROOT, "%.3f", dataSet.priority()),
          dataSet.cachedBlocks() + "/" + dataSet.totalBlocks(),
          String.join(",", dataSet.hostnames()));
    }
    out.print(table);
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
    TableListing table = new TableListing.Builder().addField("Offset", RIGHT)
        .addField("Length", RIGHT).addField("Block").addField("Replicas").addField("SSD copies")
        .build();
    for (int i = 0; i < blocks.size(); i++) {
      LocatedBlock block = blocks.get(i);
      Map<String, String> hosts = new HashMap<>();
      for (DatanodeInfo replica : block.getLocations()) {
        hosts.put(replica.getDatanodeUuid(), replica.getXferAddr());
      }
      table.addRow("" + block.getStartOffset(), size(block.getBlockSize()),
          block.getBlock().getBlockName(),
          String.join(",", hosts.values().stream().sorted().toList()),
          String.join(",", onSsd.get(i).stream().map(uuid -> hosts.getOrDefault(uuid, uuid))
              .sorted().toList()));
    }
    out.print(table);
    return 0;
  }

  private static String size(long bytes) {
    return StringUtils.byteDesc(bytes).replace(" ", "");
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MpCacheAdmin(new HdfsConfiguration()), args));
  }
}
