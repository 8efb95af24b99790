package org.mpcache.bench;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_PERCENTILES_KEY;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.bench.BenchNamespace.Shape;
import org.mpcache.bench.SimulatedSlave.Call;
import org.mpcache.master.MasterMetrics;
import org.mpcache.master.MpCacheMasterPlugin;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.simulator.ToolOptions;
import org.mpcache.tools.FreePorts;

/**
 * Throughput benchmark of the cache master in its NameNode (not a test), in the manner of
 * Hadoop's {@code NNThroughputBenchmark}: a real NameNode with the master plugin in this JVM, up to
 * a thousand DataNodes registered with it through its RPC server object
 * ({@link SimulatedDataNodes}), a namespace of directories of the sizes asked for with files held
 * open for write ({@link BenchNamespace}), and a slave thread per DataNode speaking the master's
 * protocol over RPC ({@link SimulatedSlave}). It reports the master's holds of the namesystem
 * lock (wall and the holding thread's CPU time, from the master's metrics) and the RPC latency of
 * each call type, as Markdown. Run with {@code dev-support/master-benchmark.sh}; docs/benchmarks.md.
 */
public final class MasterBenchmark {
  private static final ToolOptions OPTIONS = new ToolOptions(
      "dev-support/master-benchmark.sh [options]")
      .valued("slaves", "N", "1000", "simulated DataNodes, each with a slave thread")
      .valued("shapes", "LIST", "1000x10,10x1000,1x100000", "the namespace: directories x "
          + "files each, comma-separated")
      .valued("open-per-dir", "N", "1", "files held open for write in each directory")
      .valued("seconds", "N", "240", "how long the slaves call the master (at least 2)")
      .valued("heartbeat-ms", "MS", "3000", "a slave's heartbeat interval")
      .valued("admissions", "N", "2", "admission requests a slave's heartbeat carries")
      .valued("hits", "N", "20", "hits a slave's heartbeat reports")
      .valued("misses", "N", "20", "misses a slave's heartbeat reports")
      .valued("capacity-blocks", "N", "64", "a slave's SSD cache, in blocks")
      .valued("replication", "N", "3", "replicas a block (at most --slaves)")
      .valued("report", "FILE", "target/bench/master-benchmark.md", "the Markdown report");
  /** The targets, reported (never asserted). */
  private static final long TARGET_P99_MICROS = 2_000;
  private static final long TARGET_MAX_CPU_MICROS = 50_000;

  private MasterBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    ToolOptions.Values given = OPTIONS.parse(args);
    int slaves = Integer.parseInt(given.value("slaves"));
    String shapeSpec = given.value("shapes");
    List<Shape> shapes = BenchNamespace.shapes(shapeSpec);
    int openPerDirectory = Integer.parseInt(given.value("open-per-dir"));
    int seconds = Integer.parseInt(given.value("seconds"));
    short replication = Short.parseShort(given.value("replication"));
    File report = new File(given.value("report"));
    if (slaves < replication || seconds < 2) {
      throw new IllegalArgumentException("--slaves must be at least --replication, --seconds at"
          + " least 2");
    }
    long blockSize = DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT;
    SimulatedSlave.Load load = new SimulatedSlave.Load(
        Long.parseLong(given.value("heartbeat-ms")),
        Integer.parseInt(given.value("admissions")),
        Integer.parseInt(given.value("hits")),
        Integer.parseInt(given.value("misses")),
        Integer.parseInt(given.value("capacity-blocks")), blockSize);

    // Percentiles over half the run: the last whole interval before its end lies within it.
    int interval = Math.max(1, seconds / 2);
    InetSocketAddress masterAddress =
        new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    Configuration conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MpCacheMasterPlugin.class.getName());
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_MASTER_PERCENTILES_KEY, Integer.toString(interval));
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
    // The simulated DataNodes share 127.0.0.1 and beat once: they must stay live for the run.
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DATANODE_REGISTRATION_IP_HOSTNAME_CHECK_KEY, false);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 3_600_000);

    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build()) {
      cluster.waitActive();
      NamenodeProtocols nameNode = cluster.getNameNodeRpc();
      nameNode.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
      long setupStart = System.nanoTime();
      SimulatedDataNodes dataNodes = SimulatedDataNodes.register(nameNode, slaves);
      long files = BenchNamespace.make(nameNode, dataNodes, shapes, openPerDirectory,
          replication, blockSize);
      double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
      System.out.printf(Locale.ROOT, "%d DataNodes registered, %d files made in %.0f s%n",
          slaves, files, setupSeconds);

      List<SimulatedSlave> running = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      try (MasterProtocolClientSideTranslatorPB master =
          MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 60_000)) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        for (int node = 0; node < slaves; node++) {
          SimulatedSlave slave = new SimulatedSlave(dataNodes.uuid(node), dataNodes.hostname(node),
              dataNodes.replicas(node), master, load, deadline, node);
          Thread thread = new Thread(slave, "slave-" + node);
          running.add(slave);
          threads.add(thread);
          thread.start();
        }
        for (Thread thread : threads) {
          thread.join();
        }
      }
      Map<String, Number> metrics = masterMetrics();
      String table = report(slaves, shapeSpec, openPerDirectory, files, seconds, interval, load,
          running, metrics);
      System.out.println(table);
      report.getAbsoluteFile().getParentFile().mkdirs();
      Files.writeString(report.toPath(), table);
      System.out.println("report: " + report.getAbsolutePath());
    }
  }

  /** The master's metrics, read from its source as a metrics sink would. */
  private static Map<String, Number> masterMetrics() {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    ((MetricsSystemImpl) DefaultMetricsSystem.instance()).getSource(MasterMetrics.SOURCE)
        .getMetrics(collector, true);
    Map<String, Number> values = new HashMap<>();
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        values.put(metric.name(), metric.value());
      }
    }
    return values;
  }

  private static String report(int slaves, String shapes, int openPerDirectory, long files,
      int seconds, int interval, SimulatedSlave.Load load, List<SimulatedSlave> running,
      Map<String, Number> metrics) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%d slaves, directories %s (%d files, %d open per"
            + " directory, one block each), %d s; each slave every %d ms: %d admission requests,"
            + " a heartbeat with up to %d hits and %d misses; %d cores%n%n", slaves, shapes, files,
        openPerDirectory, seconds, load.heartbeatMillis(), load.admissions(), load.hits(),
        load.misses(), Runtime.getRuntime().availableProcessors()));
    out.append(String.format(Locale.ROOT, "Namesystem lock holds by the master (percentiles over"
        + " the last whole %d s of the run, maximum over all of it), microseconds:%n%n", interval));
    out.append("| hold | holds | p50 | p99 | max |\n|---|---|---|---|---|\n");
    holdRow(out, "wall time", "NamesystemLockHold", interval, metrics);
    holdRow(out, "holding thread's CPU time", "NamesystemLockHoldCpu", interval, metrics);
    out.append(String.format(Locale.ROOT, "%nTargets (issue 49): p99 wall ≤ %d µs: %s; no hold"
            + " over %d µs of CPU: %s%n%n", TARGET_P99_MICROS,
        met(metrics.get("NamesystemLockHold" + interval + "s99thPercentileMicros"),
            TARGET_P99_MICROS),
        TARGET_MAX_CPU_MICROS, met(metrics.get("NamesystemLockHoldCpuMaxTime"),
            TARGET_MAX_CPU_MICROS)));
    out.append(String.format(Locale.ROOT, "Namesystem lock per call, all its holds (p50 / p99"
        + " over every call: %s / %s µs), and RPC latency per call as the slaves saw it:%n%n",
        value(metrics.get("NamesystemLock" + interval + "s50thPercentileMicros")),
        value(metrics.get("NamesystemLock" + interval + "s99thPercentileMicros"))));
    out.append("| call | calls | failed | lock per call, mean µs | RPC p50 ms | RPC p99 ms |"
        + " RPC max ms |\n|---|---|---|---|---|---|---|\n");
    for (Call call : Call.values()) {
      Samples latencies = new Samples();
      int failed = 0;
      for (SimulatedSlave slave : running) {
        latencies.addAll(slave.latencies(call));
        failed += slave.failures(call);
      }
      String metric = StringUtils.camelize(call.name()) + "NamesystemLock"; // as MasterMetrics names it
      out.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %.2f | %.2f | %.2f |%n",
          call.name().toLowerCase(Locale.ROOT), latencies.count(), failed,
          value(metrics.get(metric + "AvgTime")), latencies.percentile(50) / 1e6,
          latencies.percentile(99) / 1e6, latencies.max() / 1e6));
    }
    return out.toString();
  }

  private static void holdRow(StringBuilder out, String what, String metric, int interval,
      Map<String, Number> metrics) {
    String window = metric + interval + "s";
    out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", what,
        value(metrics.get(metric + "NumOps")),
        value(metrics.get(window + "50thPercentileMicros")),
        value(metrics.get(window + "99thPercentileMicros")),
        value(metrics.get(metric + "MaxTime"))));
  }

  /** A metric's value; "n/a" where this master does not publish it. */
  private static String value(Number number) {
    if (number == null) {
      return "n/a";
    }
    return number instanceof Double || number instanceof Float
        ? String.format(Locale.ROOT, "%.0f", number.doubleValue()) : number.toString();
  }

  private static String met(Number micros, long target) {
    return micros == null ? "not measured" : micros.doubleValue() <= target ? "met" : "not met";
  }
}
