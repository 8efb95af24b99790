package org.mpcache.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.MpCacheMasterProtocol.ControlOp;

/**
 * The verbs that steer one data set, one instance each: {@code -pin}, {@code -unpin},
 * {@code -free}, {@code -ttl} and {@code -load} (docs/operations.md). Each asks the active master
 * for its {@link ControlOp} and prints the data set as it then stands; {@code -load -wait} prints
 * it again each time the load's progress changes, until nothing of it is loading.
 */
final class DataSetCommand extends VerbCommand {
  private static final Option WAIT = Option.builder("wait").desc("print the load's progress"
      + " until every block is settled; exit 1 if some are not cached").build();
  /** How often {@code -load -wait} asks for the load's progress. */
  private static final long LOAD_POLL_MS = 1_000;

  private final ControlOp op;

  private DataSetCommand(ControlOp op, Option verb, PrintStream out, PrintStream err,
      Option... listed) {
    super(verb, out, err, listed);
    this.op = op;
  }

  /** The five verbs, in the order the usage lists them. */
  static List<AdminCommand> all(PrintStream out, PrintStream err) {
    return List.of(
        new DataSetCommand(ControlOp.PIN, Option.builder("pin").hasArg().argName("path")
            .desc("pin the data set at path (or holding the file at path): never evicted, kept"
                + " on the path in the namespace; HDFS superusers only").build(),
            out, err, JSON, TIMEOUT),
        new DataSetCommand(ControlOp.UNPIN, Option.builder("unpin").hasArg().argName("path")
            .desc("unpin it: the policy ranks its copies again").build(),
            out, err, JSON, TIMEOUT),
        new DataSetCommand(ControlOp.FREE, Option.builder("free").hasArg().argName("path")
            .desc("every copy of the data set leaves the SSDs, at each slave's next heartbeat")
            .build(), out, err, JSON, TIMEOUT),
        // commons-cli names one argument per option: the two are written as one name
        new DataSetCommand(ControlOp.TTL, Option.builder("ttl").numberOfArgs(2)
            .argName("path> <duration|off").desc("a data set unread for longer than the"
                + " duration (30m, 2h, 7d) leaves the cache; off clears it").build(),
            out, err, JSON, TIMEOUT),
        new DataSetCommand(ControlOp.LOAD, Option.builder("load").hasArg().argName("path")
            .desc("copy the data set's blocks to the SSD of a node holding a replica of each, a"
                + " few at a time per node; the replacement policy admits each as a read's (pin"
                + " first to keep them all)").build(),
            out, err, WAIT, JSON, TIMEOUT));
  }

  @Override
  int run(CommandLine line, Configuration conf, CacheMasters masters) throws ParseException {
    String[] arguments = arguments(line);
    long ttlMillis = op == ControlOp.TTL ? ttlMillis(arguments[1]) : 0;
    boolean json = line.hasOption(JSON);
    boolean wait = line.hasOption(WAIT);
    return masters.askActive((address, master) -> {
      String path = absolute(new Path(arguments[0]), conf);
      ControlAnswer answer = master.control(op, path, ttlMillis);
      print(answer, json);
      return wait ? awaitLoad(master, path, answer, json) : 0;
    });
  }

  /** A TTL: {@code off}, or a duration as Hadoop's time keys take it (a bare number is ms). */
  private static long ttlMillis(String value) throws ParseException {
    return "off".equals(value) ? 0 : positiveMillis(value,
        "-ttl takes a path and a duration above 0 (30m, 2h, 7d) or off");
  }

  /** The path as the master reads it: absolute, in the default file system's namespace. */
  private static String absolute(Path path, Configuration conf) throws IOException {
    return path.getFileSystem(conf).makeQualified(path).toUri().getPath();
  }

  /**
   * Prints the data set at {@code path} each time its load's progress changes, until nothing of
   * it is loading. Exit 1 when blocks are left uncached.
   */
  private int awaitLoad(MpCacheMasterProtocol master, String path, ControlAnswer loading,
      boolean json) throws IOException {
    ControlAnswer answer = loading;
    while (answer.loadingBlocks() > 0) {
      try {
        Thread.sleep(LOAD_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
      ControlAnswer now = master.control(ControlOp.STATUS, path, 0);
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
      printJson(answer);
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
}
