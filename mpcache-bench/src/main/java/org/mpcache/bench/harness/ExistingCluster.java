package org.mpcache.bench.harness;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.mapred.JobConf;
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
  /** Slaves that have not heartbeated for this long are taken as down: not waited for. */
  private static final long DEAD_SLAVE_MILLIS = 60_000;
  private static final long HEARTBEAT_WAIT_MILLIS = 120_000;
  private static final int MASTER_TIMEOUT_MILLIS = 10_000;

  private final ClusterSetup setup;
  private final Configuration conf;
  private final DistributedFileSystem fs;
  private final Path root;
  private final long seed;
  private final List<InetSocketAddress> masters;

  private ExistingCluster(ClusterSetup setup, Configuration conf, DistributedFileSystem fs,
      Path root, long seed, List<InetSocketAddress> masters) {
    this.setup = setup;
    this.conf = conf;
    this.fs = fs;
    this.root = root;
    this.seed = seed;
    this.masters = masters;
  }

  /**
   * The cluster of the client configuration, checked against what {@code setup} says it runs:
   * an mpCache configuration needs an active master with that policy, any other none.
   */
  static ExistingCluster connect(ClusterSetup setup, String rootDir, long seed)
      throws IOException {
    if (setup == ClusterSetup.MEMORY) {
      throw new IOException("--configs memory needs the embedded cluster: its hit ratios come "
          + "from counters inside the DataNodes");
    }
    Configuration conf = new JobConf(new YarnConfiguration(new HdfsConfiguration()));
    FileSystem fs = FileSystem.get(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new IOException("fs.defaultFS is " + FileSystem.getDefaultUri(conf)
          + ", not HDFS: is HADOOP_CONF_DIR (or the classpath) the cluster's client "
          + "configuration?");
    }
    List<InetSocketAddress> masters;
    try {
      masters = MasterLinkSettings.from(conf).masters();
    } catch (InvalidSettingException e) {
      throw new IOException("invalid mpCache setting in the client configuration: "
          + e.getMessage(), e);
    }
    ExistingCluster cluster = new ExistingCluster(setup, conf, dfs,
        dfs.makeQualified(new Path(rootDir)), seed, masters);
    cluster.checkSetup();
    return cluster;
  }

  private void checkSetup() throws IOException {
    if (setup.mpCache()) {
      if (masters.isEmpty()) {
        throw new IOException("--configs " + setup.label() + ", but the client configuration "
            + "names no cache master (dfs.mpcache.master.address): is mpCache installed and on?");
      }
      String running = report().policy();
      if (!running.split("\\+")[0].equalsIgnoreCase(setup.policy())) {
        throw new IOException("--configs " + setup.label() + " expects the master's policy "
            + setup.policy() + ", the master runs " + running + " (dfs.mpcache.master.policy)");
      }
      return;
    }
    String running = null;
    if (!masters.isEmpty()) {
      try {
        running = report().policy();
      } catch (IOException e) {
        // No master answers: mpCache is off, as the label says.
      }
    }
    if (running != null) {
      throw new IOException("--configs " + setup.label() + ", but the cluster runs mpCache "
          + "(master policy " + running + "): label the run mpcache, or turn mpCache off "
          + "(docs/operations.md, \"Disable\")");
    }
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
    return new Path(root, "inputs");
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

  /**
   * Sums the slaves' bytes from SSD once every live slave has heartbeated since this call
   * began, so the figure includes every read that ended before it.
   */
  @Override
  public long bytesFromSsd() throws IOException {
    if (!setup.mpCache()) {
      return 0;
    }
    long start = System.nanoTime();
    Set<String> live = report().nodes().stream()
        .filter(node -> node.lastHeartbeatMillisAgo() < DEAD_SLAVE_MILLIS)
        .map(NodeReport::datanodeUuid).collect(Collectors.toSet());
    while (true) {
      MasterReport report = report();
      long waitedMillis = (System.nanoTime() - start) / 1_000_000;
      List<NodeReport> behind = report.nodes().stream()
          .filter(node -> live.contains(node.datanodeUuid())
              && node.lastHeartbeatMillisAgo() >= waitedMillis)
          .toList();
      if (behind.isEmpty()) {
        return report.nodes().stream().mapToLong(node -> node.usage().bytesFromSsd()).sum();
      }
      if (waitedMillis > HEARTBEAT_WAIT_MILLIS) {
        throw new IOException(String.format(Locale.ROOT, "%d slaves did not heartbeat to the "
            + "cache master in %d s: %s", behind.size(), waitedMillis / 1000,
            behind.stream().map(NodeReport::hostname).sorted(Comparator.naturalOrder())
                .toList()));
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("waiting for slave heartbeats");
      }
    }
  }

  /** The report of the active master (with NameNode HA, the others refuse as standby). */
  private MasterReport report() throws IOException {
    IOException failure = null;
    for (InetSocketAddress address : masters) {
      try (MasterProtocolClientSideTranslatorPB master =
          MasterProtocolClientSideTranslatorPB.connect(conf, address, MASTER_TIMEOUT_MILLIS)) {
        return master.report();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    throw new IOException("no cache master answered at " + masters + ": " + failure, failure);
  }

  @Override
  public long localizedGrantedBytes() {
    return 0;
  }

  @Override
  public long localizedRefusedBytes() {
    return 0;
  }

  @Override
  public long[] hddBusyNanos() {
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
