package org.mpcache.locality;

import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;

/**
 * HDFS with mpCache, and YARN if asked, on several hosts of one machine: DataNode i and NodeManager i are
 * both host {@code mphost<i>} ({@link LoopbackHosts}), so block locations, YARN node names and
 * the hosts tasks run on line up as on a real cluster. MiniYARNCluster registers every
 * NodeManager as localhost, so the NodeManagers are started here, beside a MiniMRYarnCluster
 * that runs only the ResourceManager and the history server.
 */
final class MultiHostCluster implements AutoCloseable {
  static final int BLOCK = 256 * 1024;
  /** Memory of each NodeManager; a container takes {@link #CONTAINER_MB}. */
  static final int NODE_MB = 2560;
  static final int CONTAINER_MB = 512;

  private final File work;
  private final List<String> hosts = new ArrayList<>();
  private final List<NodeManager> nodeManagers = new ArrayList<>();
  private final InetSocketAddress masterAddress;
  private MiniDFSCluster dfs;
  private Configuration dfsConf;
  private MiniMRYarnCluster yarn;

  /**
   * @param conf settings for HDFS, YARN and jobs on top of what the cluster needs
   * @param withYarn whether to start YARN too (else HDFS only)
   */
  MultiHostCluster(String name, int nodes, Configuration conf, boolean withYarn)
      throws Exception {
    LoopbackHosts.ensureWritten();
    work = GenericTestUtils.getTestDir(name);
    FileUtil.fullyDelete(work);
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    for (int i = 1; i <= nodes; i++) {
      hosts.add(LoopbackHosts.host(i));
    }
    try {
      startDfs(CacheTestCluster.quickWriteRetries(new Configuration(conf)));
      if (withYarn) {
        startYarn(CacheTestCluster.quickWriteRetries(new Configuration(conf)));
      }
    } catch (Exception e) {
      close();
      throw e;
    }
  }

  private void startDfs(Configuration conf) throws IOException {
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setIfUnset(DFSConfigKeys.DFS_REPLICATION_KEY, "3");
    conf.set(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, DATASET_FACTORY_CLASS);
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
    conf.setIfUnset(DFS_MPCACHE_CAPACITY_KEY, "8m");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "200ms");
    Configuration[] overlays = new Configuration[hosts.size()];
    for (int i = 0; i < overlays.length; i++) {
      overlays[i] = new Configuration(false);
      overlays[i].set(DFS_MPCACHE_DIRS_KEY, mkdirs(new File(work, "ssd" + i)).getAbsolutePath());
    }
    dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(hosts.size())
        .hosts(hosts.toArray(String[]::new)).dataNodeConfOverlays(overlays).build();
    dfs.waitActive();
    dfsConf = conf;
  }

  private void startYarn(Configuration conf) throws Exception {
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, CONTAINER_MB);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, CONTAINER_MB);
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, CONTAINER_MB);
    // Task and application master JVMs that start fast (C1 only, one GC thread): on 2 cores
    // their start is most of a small job.
    String jvm = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC " + LoopbackHosts.jvmOption();
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m " + jvm);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx256m " + jvm);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx384m " + jvm);
    conf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
    conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
    // The client learns of a job's end within 100 ms, not the default 5 s.
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    // The containers' logs and dirs stay until the next run (-1: the NodeManagers delete
    // nothing), so no log deletion is pending when a NodeManager stops: one scheduled for
    // yarn.nodemanager.log.retain-seconds later has its stop wait 10 s.
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, -1);
    yarn = new MiniMRYarnCluster(work.getName(), 0);
    yarn.init(conf);
    yarn.start();
    for (int i = 0; i < hosts.size(); i++) {
      nodeManagers.add(startNodeManager(i));
    }
    GenericTestUtils.waitFor(() -> yarn.getResourceManager().getRMContext().getRMNodes().size()
        == hosts.size(), 100, 60_000, "all NodeManagers registered");
  }

  private NodeManager startNodeManager(int i) throws IOException {
    String host = hosts.get(i);
    return HostNodeManager.start(yarn.getConfig(), host,
        List.of(mkdirs(new File(work, host + "/local"))), mkdirs(new File(work, host + "/log")),
        NODE_MB);
  }

  private static File mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    return dir;
  }

  MiniDFSCluster dfs() {
    return dfs;
  }

  MiniMRYarnCluster yarn() {
    return yarn;
  }

  /** Settings of HDFS and its clients (without YARN's). */
  Configuration dfsConf() {
    return new Configuration(dfsConf);
  }

  /** Settings for clients of both: jobs, the file systems they use. */
  Configuration clientConf() {
    return new Configuration(yarn.getConfig());
  }

  InetSocketAddress masterAddress() {
    return masterAddress;
  }

  List<String> hosts() {
    return hosts;
  }

  @Override
  public void close() {
    // The NodeManagers stop together.
    nodeManagers.parallelStream().forEach(NodeManager::stop);
    if (yarn != null) {
      yarn.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }
}
