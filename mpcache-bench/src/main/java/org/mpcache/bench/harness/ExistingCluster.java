package org.mpcache.bench.harness;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SsdMapOutputCollector;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MasterReport.NodeReport;

/**
 * A cluster that runs already ({@code --cluster existing}): the one the client configuration
 * names (the site files in {@code HADOOP_CONF_DIR} when the harness runs through
 * {@code yarn jar}), with its own devices and settings. The stream's files live under one HDFS
 * folder; the input hit ratios come from the cache master's report (docs/benchmarks.md, "On an
 * existing cluster").
 */
final class ExistingCluster implements StreamCluster {
  private static final long HEARTBEAT_WAIT_MILLIS = 120_000;
  private static final int TIMEOUT_MILLIS = 10_000;

  private final ClusterSetup setup;
  private final Configuration conf;
  private final DistributedFileSystem fs;
  private final Path root;
  private final String inputsFolder;
  private final long seed;
  private final List<InetSocketAddress> masters;

  private ExistingCluster(ClusterSetup setup, Configuration conf, DistributedFileSystem fs,
      Path root, String inputsFolder, long seed, List<InetSocketAddress> masters) {
    this.setup = setup;
    this.conf = conf;
    this.fs = fs;
    this.root = root;
    this.inputsFolder = inputsFolder;
    this.seed = seed;
    this.masters = masters;
  }

  /**
   * The cluster of the client configuration, checked against what {@code setup} says it runs:
   * an mpCache configuration needs an answering master with that policy and the matching
   * MapReduce plugins, any other no master listening. Inputs go to
   * {@code rootDir/inputsFolder} (a folder name that carries the data sets' sizes).
   */
  static ExistingCluster connect(ClusterSetup setup, String rootDir, String inputsFolder,
      long seed) throws IOException {
    if (setup == ClusterSetup.MEMORY || setup == ClusterSetup.ALL_SSD
        || setup == ClusterSetup.MPCACHE_COLD) {
      throw new IOException("--configs " + setup.label() + " needs the embedded cluster, which "
          + "sets its DataNodes up for it (in-memory cache counters, SSD volumes under ALL_SSD, "
          + "an empty cache)");
    }
    Configuration conf = new JobConf(new YarnConfiguration(new HdfsConfiguration()));
    FileSystem fs = FileSystem.get(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new IOException("fs.defaultFS is " + FileSystem.getDefaultUri(conf)
          + ", not HDFS: is HADOOP_CONF_DIR (or the classpath) the cluster's client "
          + "configuration?");
    }
    checkHistoryServer(conf);
    List<InetSocketAddress> masters;
    try {
      masters = MasterLinkSettings.from(conf).masters();
    } catch (InvalidSettingException e) {
      throw new IOException("invalid mpCache setting in the client configuration: "
          + e.getMessage(), e);
    }
    ExistingCluster cluster = new ExistingCluster(setup, conf, dfs,
        dfs.makeQualified(new Path(rootDir)), inputsFolder, seed, masters);
    cluster.checkSetup();
    return cluster;
  }

  /** The job client reads a finished job's counters and task reports from it. */
  private static void checkHistoryServer(Configuration conf) throws IOException {
    InetSocketAddress history = conf.getSocketAddr(JHAdminConfig.MR_HISTORY_ADDRESS,
        JHAdminConfig.DEFAULT_MR_HISTORY_ADDRESS, JHAdminConfig.DEFAULT_MR_HISTORY_PORT);
    try (Socket socket = new Socket()) {
      NetUtils.connect(socket, history, TIMEOUT_MILLIS);
    } catch (IOException e) {
      throw new IOException("no JobHistoryServer answers at " + history + " ("
          + JHAdminConfig.MR_HISTORY_ADDRESS + "): the driver reads each finished job's "
          + "counters from it", e);
    }
  }

  private void checkSetup() throws IOException {
    if (!setup.mpCache()) {
      String running = policyIfListening();
      if (running != null) {
        throw new IOException("--configs " + setup.label() + ", but the cluster runs mpCache "
            + "(master policy " + running + "): label the run mpcache, or turn mpCache off "
            + "(docs/operations.md, \"Disable\")");
      }
      return;
    }
    if (masters.isEmpty()) {
      throw new IOException("--configs " + setup.label() + ", but the client configuration "
          + "names no cache master (dfs.mpcache.master.address): is mpCache installed and on?");
    }
    String running = report().policy();
    if (!running.equalsIgnoreCase(setup.policy())) {
      throw new IOException("--configs " + setup.label() + " expects the master's policy "
          + setup.policy() + ", the master runs " + running + " (dfs.mpcache.master.policy)");
    }
    String collector = conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, "");
    if (setup.localized() != collector.contains(SsdMapOutputCollector.class.getName())) {
      throw new IOException("--configs " + setup.label() + (setup.localized()
          ? " caches localized data, but " : " caches input only, but ")
          + MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR + " is '" + collector + "' (mapred-site;"
          + " docs/operations.md, \"Localized data on the SSD\")");
    }
  }

  /**
   * The policy of the first master that answers; null when none is configured or none listens
   * (mpCache off). Any other failure is an error: it cannot tell whether mpCache runs.
   */
  private String policyIfListening() throws IOException {
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master =
          MasterProtocolClientSideTranslatorPB.connect(conf, address, TIMEOUT_MILLIS)) {
        return master.report().policy();
      } catch (IOException e) {
        if (!refused(e)) {
          throw new IOException("cannot tell whether mpCache runs: the master address "
              + address + " answered " + e, e);
        }
      }
    }
    return null;
  }

  @Override
  public ClusterSetup setup() {
    return setup;
  }

  @Override
  public Configuration jobConf() {
    return conf;
  }

  @Override
  public DistributedFileSystem fs() {
    return fs;
  }

  @Override
  public Path inputs() {
    return new Path(root, inputsFolder);
  }

  @Override
  public Path outputs() {
    return new Path(root, "out/" + setup.label() + "-seed-" + seed);
  }

  /**
   * The live DataNodes, by transfer address; empty when the caller may not list them (HDFS
   * grants the DataNode report to its superuser only).
   */
  @Override
  public InetSocketAddress[] dataNodeAddresses() throws IOException {
    try {
      return Arrays.stream(fs.getDataNodeStats(DatanodeReportType.LIVE))
          .map(DatanodeInfo::getXferAddr).sorted().map(NetUtils::createSocketAddr)
          .toArray(InetSocketAddress[]::new);
    } catch (IOException e) {
      IOException cause = e instanceof RemoteException remote ? remote.unwrapRemoteException() : e;
      if (cause instanceof AccessControlException) {
        return new InetSocketAddress[0];
      }
      throw e;
    }
  }

  @Override
  public void emulate(boolean on) {
    // Real devices.
  }

  /** The slaves' fills cannot be seen from here: the warm-up's reads are not settled. */
  @Override
  public void settleCaches() {
  }

  /**
   * Each slave's bytes from SSD once every slave has heartbeated since this call began, so the
   * figures include every read that ended before it. A slave the master drops meanwhile (silent
   * past its expiry) is not waited for: the readings then differ in nodes and the job's hit
   * ratio is left blank.
   */
  @Override
  public Map<String, Long> bytesFromSsdByNode() throws IOException {
    if (!setup.mpCache()) {
      return Map.of();
    }
    long start = System.nanoTime();
    while (true) {
      long askedMillis = (System.nanoTime() - start) / 1_000_000;
      MasterReport report = report();
      List<NodeReport> behind = report.nodes().stream()
          .filter(node -> node.lastHeartbeatMillisAgo() >= askedMillis).toList();
      if (behind.isEmpty()) {
        Map<String, Long> bytes = new TreeMap<>();
        report.nodes().forEach(node -> bytes.put(node.datanodeUuid(),
            node.usage().bytesFromSsd()));
        return bytes;
      }
      if (askedMillis > HEARTBEAT_WAIT_MILLIS) {
        throw new IOException(String.format(Locale.ROOT, "%d slaves did not heartbeat to the "
            + "cache master in %d s: %s", behind.size(), askedMillis / 1000,
            behind.stream().map(NodeReport::hostname).sorted().toList()));
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("waiting for slave heartbeats");
      }
    }
  }

  /** Whether nothing listened where {@code e} tried to connect (RPC may wrap the cause). */
  private static boolean refused(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** The report of the active master (with NameNode HA, the others refuse as standby). */
  private MasterReport report() throws IOException {
    List<String> failures = new ArrayList<>();
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master =
          MasterProtocolClientSideTranslatorPB.connect(conf, address, TIMEOUT_MILLIS)) {
        return master.report();
      } catch (IOException e) {
        failures.add(address + ": " + e.getMessage());
      }
    }
    throw new IOException("no cache master answered: " + String.join("; ", failures));
  }

  @Override
  public long localizedGrantedBytes() {
    return 0;
  }

  @Override
  public long localizedRefusedBytes() {
    return 0;
  }

  /** Not sampled: the master's report would cost each sample an RPC. */
  @Override
  public long[] inputRoomBytes() {
    return new long[0];
  }

  @Override
  public long[] hddBusyNanos() {
    return new long[0];
  }

  @Override
  public long[] hddBusyNanosByCause() {
    return new long[0];
  }

  @Override
  public boolean onThisMachine() {
    return false;
  }

  @Override
  public void close() {
    // The cluster keeps running; the file system is the process's cached one.
  }
}
