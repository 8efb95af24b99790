package org.mpcache.bench.harness;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_CAPACITY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_ENABLED_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_DIRS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_INCLUDE_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_POLICY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_POOL_SHARE_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_CACHE_WAIT_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_REPLICA_WAIT_KEY;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetFactory;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDatasetFactory;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.io.nativeio.NativeIO;
import org.apache.hadoop.mapred.DeviceChargingShuffleHandler;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapred.SsdMapOutputCollector;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.SsdShuffle;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.mpcache.bench.device.Device;
import org.mpcache.bench.device.EmulatedDevices;
import org.mpcache.bench.device.EmulatedDevicesDatasetFactory;
import org.mpcache.bench.device.EmulatedLocalFileSystem;
import org.mpcache.bench.device.IoCause;
import org.mpcache.locality.HostNodeManager;
import org.mpcache.locality.LoopbackHosts;
import org.mpcache.locality.MpCacheClientProtocolProvider;
import org.mpcache.locality.MpCacheDistributedFileSystem;
import org.mpcache.master.MpCacheMasterPlugin;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.slave.spacetuner.SpaceTuner;
import org.mpcache.tools.FreePorts;

/**
 * One embedded cluster for one configuration: node i is DataNode i (one HDD volume, plus an SSD
 * volume under ALL_SSD or an SSD cache dir under mpCache) and NodeManager i, whose local dirs
 * sit on the same emulated HDD as the DataNode's volume, as on a real node. Where localized data
 * is cached, the last local dir is the slave's localized dir on the SSD; under ALL_SSD all local
 * dirs are on the SSD.
 */
final class BenchCluster implements StreamCluster {
  /** Where the jobs' inputs live; under ALL_SSD only this tree is on SSD. */
  static final Path INPUTS = new Path("/puma");
  private static final Path OUTPUTS = new Path("/out");
  private static final String HDD_SUFFIX = "-hdd";
  private static final String SSD_SUFFIX = "-ssd";
  private static final int LOCAL_DIRS_PER_NODE = 4;
  private static final int AM_HEARTBEAT_MILLIS = 100;
  /** At most how long the caches may take to settle (fills end, then three heartbeats). */
  private static final long SETTLE_MILLIS = 120_000;
  private static final String LOCALITY_WAIT = AM_HEARTBEAT_MILLIS + "ms";
  private final ClusterSetup setup;
  private final MiniDFSCluster dfs;
  private final Yarn yarn;
  private final Configuration jobConf;
  private final EmulatedDevices devices;

  /**
   * The ResourceManager (and history server) of a MiniMRYarnCluster, and NodeManager i as host
   * {@code mphost<i+1>} (MiniYARNCluster would name them all localhost).
   */
  private record Yarn(MiniMRYarnCluster cluster, List<NodeManager> nodeManagers) {
    void stop() {
      // Each waits about ten seconds for the applications it ran: together.
      nodeManagers.parallelStream().forEach(NodeManager::stop);
      cluster.stop();
    }
  }

  private BenchCluster(ClusterSetup setup, MiniDFSCluster dfs, Yarn yarn,
      Configuration jobConf) {
    this.setup = setup;
    this.dfs = dfs;
    this.yarn = yarn;
    this.jobConf = jobConf;
    this.devices = EmulatedDevices.of(jobConf);
  }

  /**
   * Starts the cluster in {@code runDir}; devices are emulated (off until
   * {@link #emulate(boolean)}) when the options give profiles.
   */
  static BenchCluster start(ClusterSetup setup, HarnessOptions options, long ssdBytesPerNode,
      long memoryBytesPerNode, File runDir) throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, options.blockBytes());
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    // One replica: every configuration reads a block from the one node whose devices hold it
    // (the emulation charges devices, not the network), wherever its map runs.
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 5000);
    File hddRoot = new File(runDir, "hdd");
    File ssdRoot = options.ssdDir() == null ? new File(runDir, "ssd")
        : new File(options.ssdDir(), runDir.getName());
    Configuration[] overlays = new Configuration[options.nodes()];
    List<File> hddDirs = new ArrayList<>();
    List<File> ssdDirs = new ArrayList<>();
    List<File> localizedDirs = new ArrayList<>();
    for (int i = 0; i < options.nodes(); i++) {
      File hdd = mkdirs(new File(hddRoot, "node" + i));
      File ssd = mkdirs(new File(ssdRoot, "node" + i));
      hddDirs.add(hdd);
      ssdDirs.add(ssd);
      overlays[i] = new Configuration(false);
      String volumes = "[DISK]" + new File(hdd, "dn").toURI();
      if (setup == ClusterSetup.ALL_SSD) {
        volumes += ",[SSD]" + new File(ssd, "dn").toURI();
      }
      overlays[i].set(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY, volumes);
      overlays[i].set(DFS_MPCACHE_DIRS_KEY, mkdirs(new File(ssd, "cache")).getAbsolutePath());
      if (setup.localized()) {
        localizedDirs.add(mkdirs(new File(ssd, "localized")));
        overlays[i].set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, localizedDirs.get(i).getAbsolutePath());
        overlays[i].setDouble(DFS_MPCACHE_POOL_SHARE_KEY, options.poolShare());
      }
    }
    configureSetup(conf, setup, ssdBytesPerNode, memoryBytesPerNode);
    if (options.emulated()) {
      conf.set(EmulatedDevices.DIR_KEY, mkdirs(new File(runDir, "devices")).getAbsolutePath());
      for (int i = 0; i < options.nodes(); i++) {
        EmulatedDevices.describe(conf, "node" + i + HDD_SUFFIX, options.hdd(),
            List.of(hddDirs.get(i)));
        EmulatedDevices.describe(conf, "node" + i + SSD_SUFFIX, options.ssd(),
            List.of(ssdDirs.get(i)));
      }
      conf.setClass(EmulatedDevicesDatasetFactory.DELEGATE_KEY,
          conf.getClass(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, FsDatasetFactory.class),
          Object.class);
      conf.setClass(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY,
          EmulatedDevicesDatasetFactory.class, Object.class);
      conf.set("fs.file.impl", EmulatedLocalFileSystem.class.getName());
    }
    LoopbackHosts.ensureWritten();
    String[] hosts = IntStream.rangeClosed(1, options.nodes()).mapToObj(LoopbackHosts::host)
        .toArray(String[]::new);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(runDir, "dfs"))
        .numDataNodes(options.nodes()).manageDataDfsDirs(false).dataNodeConfOverlays(overlays)
        .hosts(hosts).build();
    dfs.waitActive();
    Yarn yarn;
    try {
      if (setup == ClusterSetup.ALL_SSD) {
        // Inputs only, the data mpCache caches: job outputs stay on the HDDs in every
        // configuration (putting them on SSD halved ALL_SSD's reduce phases).
        dfs.getFileSystem().mkdirs(INPUTS);
        dfs.getFileSystem().setStoragePolicy(INPUTS, HdfsConstants.ALLSSD_STORAGE_POLICY_NAME);
      }
      yarn = startYarn(conf, dfs, setup, options, runDir, hosts, hddDirs, ssdDirs, localizedDirs);
    } catch (IOException | RuntimeException e) {
      dfs.shutdown();
      throw e;
    }
    Configuration jobConf = new Configuration(yarn.cluster().getConfig());
    if (setup.mpCache()) {
      // What core-site.xml and mapred-site.xml say where jobs are submitted: block locations
      // and reads that know the SSD copies, and the ApplicationMaster that places maps on them.
      jobConf.set("fs.hdfs.impl", MpCacheDistributedFileSystem.class.getName());
      jobConf.set(MRConfig.FRAMEWORK_NAME, MpCacheClientProtocolProvider.FRAMEWORK_NAME);
      // A map waits for a node holding its block on SSD only as long as that can gain: the
      // emulation charges devices, not the network, so a remote read of the same copy costs
      // the same; one allocation round (the AM's heartbeat) each.
      jobConf.set(MPCACHE_LOCALITY_CACHE_WAIT_KEY, LOCALITY_WAIT);
      jobConf.set(MPCACHE_LOCALITY_REPLICA_WAIT_KEY, LOCALITY_WAIT);
    }
    BenchCluster cluster = new BenchCluster(setup, dfs, yarn, jobConf);
    if (options.emulated()) {
      cluster.shipEmulationToTasks();
    }
    return cluster;
  }

  private static void configureSetup(Configuration conf, ClusterSetup setup, long ssdBytes,
      long memoryBytes) throws IOException {
    if (setup.mpCache()) {
      conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
      conf.setLong(DFS_MPCACHE_CAPACITY_KEY, ssdBytes);
      conf.setClass(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY,
          MpCacheFsDatasetFactory.class, Object.class);
      conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MpCacheMasterPlugin.class.getName());
      conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY,
          "127.0.0.1:" + FreePorts.outsideEphemeralRange());
      conf.set(DFS_MPCACHE_MASTER_POLICY_KEY, setup.policy());
      // Job input only: the jar shipped to tasks (/bench) is not a data set, and every byte
      // from an SSD copy is input, which the hit ratios count.
      conf.set(DFS_MPCACHE_MASTER_INCLUDE_KEY, INPUTS.toString());
    } else if (setup == ClusterSetup.MEMORY) {
      // Hadoop's own test seam: cache without mlock (no libhadoop here); the emulated devices
      // still charge the load and serve cached blocks at RAM speed.
      NativeIO.POSIX.setCacheManipulator(new NativeIO.POSIX.NoMlockCacheManipulator());
      conf.setLong(DFSConfigKeys.DFS_DATANODE_MAX_LOCKED_MEMORY_KEY, memoryBytes);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_PATH_BASED_CACHE_REFRESH_INTERVAL_MS, 500);
      conf.setLong(DFSConfigKeys.DFS_CACHEREPORT_INTERVAL_MSEC_KEY, 500);
      conf.setClass(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY,
          MemoryCacheAwareFsDatasetFactory.class, Object.class);
    }
  }

  /**
   * Starts YARN, NodeManager i as {@code hosts[i]}; with {@code localizedDirs} (one per node,
   * else empty) each NodeManager's last local dir is its slave's localized dir, as
   * {@code yarn.nodemanager.local-dirs} lists the SSD on a real node, and the jobs run with the
   * hadoop-mapreduce-ssdshuffle plugins. Emulated, node i's local dirs join its devices
   * ({@code hddDirs[i]}, {@code ssdDirs[i]}) in the configuration the NodeManagers and the jobs
   * start from.
   */
  private static Yarn startYarn(Configuration conf, MiniDFSCluster dfs, ClusterSetup setup,
      HarnessOptions options, File runDir, String[] hosts, List<File> hddDirs,
      List<File> ssdDirs, List<File> localizedDirs) throws IOException {
    Configuration yarnConf = new Configuration(conf);
    yarnConf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    // Slots, not limits: each node fits exactly containersPerNode task containers, and the
    // job's ApplicationMaster fits in the small remainder of one node.
    int taskMb = 512;
    int amMb = 256;
    yarnConf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    yarnConf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    yarnConf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, amMb);
    yarnConf.setInt(MRJobConfig.MAP_MEMORY_MB, taskMb);
    yarnConf.setInt(MRJobConfig.REDUCE_MEMORY_MB, taskMb);
    yarnConf.setInt(MRJobConfig.MR_AM_VMEM_MB, amMb);
    // Task JVMs live seconds on a few shared cores: serial GC and C1 alone cost less CPU than
    // parallel GC threads and C2 compilations that would pay off only in long-lived JVMs. They
    // resolve the nodes' host names as this JVM does.
    String jvm = " -XX:+UseSerialGC -XX:TieredStopAtLevel=1 " + LoopbackHosts.jvmOption();
    yarnConf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx384m" + jvm);
    yarnConf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx384m" + jvm);
    yarnConf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx192m" + jvm);
    // Short polling keeps each job's fixed overhead small next to its I/O.
    yarnConf.setInt(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
    yarnConf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, AM_HEARTBEAT_MILLIS);
    // Each input block is read once per job, by its one map, in every configuration.
    yarnConf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    yarnConf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
    yarnConf.setInt("mapreduce.client.progressmonitor.pollinterval", 100);
    yarnConf.setInt("mapreduce.client.completion.pollinterval", 100);
    yarnConf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
    // snappy-java, no native library needed.
    yarnConf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, options.compressMapOutput());
    yarnConf.setClass(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, SnappyCodec.class,
        CompressionCodec.class);
    if (!localizedDirs.isEmpty()) {
      yarnConf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, SsdMapOutputCollector.class
          .getName() + "," + MapTask.MapOutputBuffer.class.getName());
      yarnConf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SsdShuffle.class.getName());
    }
    System.setProperty("hadoop.log.dir", new File(runDir, "logs").getAbsolutePath());
    MiniMRYarnCluster cluster = new MiniMRYarnCluster("bench-" + runDir.getName(), 0);
    cluster.init(yarnConf);
    cluster.start();
    Configuration nodeConf = cluster.getConfig();
    if (options.emulated()) {
      // MiniMRYarnCluster's init names the stock ShuffleHandler; this one reads each map output
      // it sends off the device of its local dir.
      nodeConf.setClass(String.format(YarnConfiguration.NM_AUX_SERVICE_FMT,
          ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID), DeviceChargingShuffleHandler.class,
          Service.class);
    }
    List<NodeManager> nodeManagers = new ArrayList<>();
    try {
      for (int i = 0; i < hosts.length; i++) {
        File nodeDir = new File(runDir, "yarn/" + hosts[i]);
        List<File> dirs = new ArrayList<>();
        for (int d = 0; d < LOCAL_DIRS_PER_NODE; d++) {
          File dir = new File(nodeDir, "local" + d).getAbsoluteFile();
          if (d == LOCAL_DIRS_PER_NODE - 1 && !localizedDirs.isEmpty()) {
            mkdirs(nodeDir);
            Files.createSymbolicLink(dir.toPath(), localizedDirs.get(i).toPath());
          } else {
            mkdirs(dir);
          }
          dirs.add(dir);
        }
        if (options.emulated()) {
          describeDevices(nodeConf, setup, options, i, hddDirs.get(i), ssdDirs.get(i), dirs);
        }
        nodeManagers.add(HostNodeManager.start(nodeConf, hosts[i], dirs,
            mkdirs(new File(nodeDir, "log")), taskMb * options.containersPerNode() + amMb));
      }
      GenericTestUtils.waitFor(() -> cluster.getResourceManager().getRMContext().getRMNodes()
          .size() == hosts.length, 100, 60_000);
    } catch (IOException | RuntimeException | InterruptedException
        | java.util.concurrent.TimeoutException e) {
      new Yarn(cluster, nodeManagers).stop();
      throw new IOException("YARN did not start: " + e, e);
    }
    return new Yarn(cluster, nodeManagers);
  }

  /** Node {@code node}'s emulated HDD and SSD, each with its share of the node's local dirs. */
  private static void describeDevices(Configuration conf, ClusterSetup setup,
      HarnessOptions options, int node, File hdd, File ssd, List<File> localDirs) {
    List<File> onHdd = new ArrayList<>(List.of(hdd));
    List<File> onSsd = new ArrayList<>(List.of(ssd));
    for (File dir : localDirs) {
      boolean onSsdDevice = setup == ClusterSetup.ALL_SSD
          || setup.localized() && dir.equals(localDirs.get(localDirs.size() - 1));
      (onSsdDevice ? onSsd : onHdd).add(dir);
    }
    EmulatedDevices.describe(conf, "node" + node + HDD_SUFFIX, options.hdd(), onHdd);
    EmulatedDevices.describe(conf, "node" + node + SSD_SUFFIX, options.ssd(), onSsd);
  }

  /**
   * Task JVMs load {@code fs.file.impl} from their classpath: this jar goes into HDFS and onto
   * every job's classpath (as {@code -libjars} would put it).
   */
  private void shipEmulationToTasks() throws IOException {
    File jar;
    try {
      jar = new File(EmulatedLocalFileSystem.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    if (!jar.isFile()) {
      throw new IOException("device emulation must run from the mpcache-bench jar (tasks load "
          + "it), not from " + jar + "; use dev-support/puma-benchmark.sh");
    }
    Path shipped = new Path("/bench/lib/" + jar.getName());
    fs().copyFromLocalFile(new Path(jar.toURI()), shipped);
    Job holder = Job.getInstance(jobConf);
    holder.addFileToClassPath(fs().makeQualified(shipped));
    jobConf.set(MRJobConfig.CLASSPATH_FILES, holder.getConfiguration()
        .get(MRJobConfig.CLASSPATH_FILES));
    jobConf.set(MRJobConfig.CACHE_FILES, holder.getConfiguration().get(MRJobConfig.CACHE_FILES));
  }

  @Override
  public DistributedFileSystem fs() throws IOException {
    return dfs.getFileSystem();
  }

  /** The DataNodes' data transfer addresses, in node order. */
  @Override
  public InetSocketAddress[] dataNodeAddresses() {
    return dfs.getDataNodes().stream().map(DataNode::getXferAddress)
        .toArray(InetSocketAddress[]::new);
  }

  @Override
  public Configuration jobConf() {
    return jobConf;
  }

  @Override
  public ClusterSetup setup() {
    return setup;
  }

  @Override
  public Path inputs() {
    return INPUTS;
  }

  @Override
  public Path outputs() {
    return OUTPUTS;
  }

  @Override
  public boolean onThisMachine() {
    return true;
  }

  @Override
  public void emulate(boolean on) {
    devices.setEnabled(on);
  }

  @Override
  public Map<String, Long> bytesFromSsdByNode() {
    Map<String, Long> bytes = new TreeMap<>();
    for (DataNode node : dfs.getDataNodes()) {
      if (node.getFSDataset() instanceof MpCacheFsDataset dataset) {
        bytes.put(node.getDatanodeUuid(),
            dataset.getInputCache().counter(CacheCounter.BYTES_FROM_SSD));
      }
    }
    return bytes;
  }

  @Override
  public void settleCaches() throws IOException {
    List<InputCache> caches = mpCacheDatasets().map(MpCacheFsDataset::getInputCache).toList();
    try {
      GenericTestUtils.waitFor(() -> caches.stream().allMatch(cache -> cache.fillsUnderWay() == 0),
          5, SETTLE_MILLIS, "mpCache fills to end");
      // The third heartbeat counted from here began after the second ended, and the second
      // drained the slave's hits after this point; slaves without a master send none.
      long[] beats = caches.stream().mapToLong(InputCache::masterHeartbeats).toArray();
      GenericTestUtils.waitFor(() -> IntStream.range(0, beats.length).allMatch(
          i -> beats[i] == 0 || caches.get(i).masterHeartbeats() >= beats[i] + 3), 20,
          SETTLE_MILLIS, "a heartbeat of every mpCache slave after its fills");
    } catch (TimeoutException e) {
      throw new IOException("the caches did not settle: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the caches settle");
    }
  }

  @Override
  public long localizedGrantedBytes() {
    return spaceTuners().mapToLong(SpaceTuner::grantedBytes).sum();
  }

  @Override
  public long localizedRefusedBytes() {
    return spaceTuners().mapToLong(SpaceTuner::refusedBytes).sum();
  }

  @Override
  public long[] inputRoomBytes() {
    return mpCacheDatasets().mapToLong(dataset -> dataset.getInputCache().capacityBytes())
        .toArray();
  }

  private Stream<MpCacheFsDataset> mpCacheDatasets() {
    return dfs.getDataNodes().stream().map(DataNode::getFSDataset)
        .filter(MpCacheFsDataset.class::isInstance).map(MpCacheFsDataset.class::cast);
  }

  private Stream<SpaceTuner> spaceTuners() {
    return mpCacheDatasets().map(MpCacheFsDataset::getSpaceTuner).filter(Objects::nonNull);
  }

  /** In node order. */
  @Override
  public long[] hddBusyNanos() {
    return hdds().mapToLong(hdd -> hdd.totals().busyNanos()).toArray();
  }

  @Override
  public long[] hddBusyNanosByCause() {
    List<long[]> hdds = hdds().map(Device::busyNanosByCause).toList();
    long[] sum = new long[hdds.isEmpty() ? 0 : IoCause.values().length];
    hdds.forEach(busy -> Arrays.setAll(sum, i -> sum[i] + busy[i]));
    return sum;
  }

  /** The emulated HDDs ({@link #start} names them "node<i>-hdd"). */
  private Stream<Device> hdds() {
    return devices.devices().stream().filter(device -> device.name().endsWith(HDD_SUFFIX));
  }

  private static File mkdirs(File dir) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    return dir;
  }

  @Override
  public void close() {
    yarn.stop();
    dfs.shutdown();
  }
}
