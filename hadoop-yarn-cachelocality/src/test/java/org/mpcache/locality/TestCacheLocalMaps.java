package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.v2.app.rm.CacheLocalContainerAllocator;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.slave.inputcache.CacheCounter;

/**
 * Map placement on four hosts (DataNode and NodeManager each), two replicas per block: a job
 * asks YARN for all its maps at once, as a stock job does; a job whose input an earlier run left
 * on SSDs runs its maps where the SSD copies are and reads them, and falls back to the other
 * replica's node when an SSD node has no room. The tests run in
 * order on one cluster: each leaves the caches as the next expects.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(900)
class TestCacheLocalMaps {
  private static final int NODES = 4;
  private static final int BLOCKS = 8;
  private static final Path INPUT = new Path("/input/data");
  /**
   * Long enough that a map waits out a busy SSD node on a loaded test machine: what is checked
   * is where maps go, not how soon they give up.
   */
  private static final long CACHE_WAIT_MILLIS = 10_000;
  private static final long REPLICA_WAIT_MILLIS = 300_000;

  private MultiHostCluster cluster;
  /** DataNode UUID to its host. */
  private final Map<String, String> hostOf = new HashMap<>();
  private int jobs;

  @BeforeAll
  void start() throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 2);
    // What an operator sets cluster-wide (core-site.xml) for mpCache's block locations and reads.
    conf.set("fs.hdfs.impl", MpCacheDistributedFileSystem.class.getName());
    conf.set(YarnConfiguration.RM_APPLICATION_MASTER_SERVICE_PROCESSORS,
        FirstMapAsks.class.getName());
    cluster = new MultiHostCluster("cachelocalmaps", NODES, conf, true);
    for (DataNode dataNode : cluster.dfs().getDataNodes()) {
      hostOf.put(dataNode.getDatanodeUuid(), dataNode.getDatanodeId().getHostName());
    }
    byte[] data = new byte[BLOCKS * MultiHostCluster.BLOCK];
    new Random(11).nextBytes(data);
    try (OutputStream out = cluster.dfs().getFileSystem().create(INPUT)) {
      out.write(data);
    }
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * Reads every input block in a map of its own (a split per block, in block order); one reduce,
   * so that reduces are scheduled while maps wait.
   */
  private Job readJob(boolean withMpCache) throws IOException {
    Configuration conf = cluster.clientConf();
    if (withMpCache) {
      conf.set(MRConfig.FRAMEWORK_NAME, MpCacheClientProtocolProvider.FRAMEWORK_NAME);
      conf.setLong(MpCacheConfigKeys.MPCACHE_LOCALITY_CACHE_WAIT_KEY, CACHE_WAIT_MILLIS);
      conf.setLong(MpCacheConfigKeys.MPCACHE_LOCALITY_REPLICA_WAIT_KEY, CACHE_WAIT_MILLIS);
    } else {
      conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    }
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    Job job = Job.getInstance(conf, "read " + (++jobs));
    job.setJarByClass(TestCacheLocalMaps.class);
    job.setMapperClass(Mapper.class);
    job.setNumReduceTasks(1);
    job.setOutputFormatClass(NullOutputFormat.class);
    FileInputFormat.addInputPath(job, INPUT);
    return job;
  }

  private static void run(Job job) throws Exception {
    assertTrue(job.waitForCompletion(false), job.getJobName() + " failed");
  }

  /** The host each map ran on, by map index (= block index). */
  private static Map<Integer, String> mapHosts(Job job) throws Exception {
    Map<Integer, String> hosts = new TreeMap<>();
    // Right after the job ends its events may come from the history server, not yet complete.
    GenericTestUtils.waitFor(() -> {
      try {
        for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
          if (event.isMapTask() && event.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
            // The application master reports http://host:port, the history server host:port.
            String http = event.getTaskTrackerHttp();
            String hostPort = http.substring(http.indexOf("//") < 0 ? 0 : http.indexOf("//") + 2);
            hosts.put(event.getTaskAttemptId().getTaskID().getId(),
                hostPort.substring(0, hostPort.lastIndexOf(':')));
          }
        }
        return hosts.size() == BLOCKS;
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }, 200, 60_000, "where each map of " + job.getJobName() + " ran");
    return hosts;
  }

  /** The hosts holding each input block on SSD, by block index. */
  private List<Set<String>> ssdHolders() throws IOException {
    FileSystem fs = cluster.dfs().getFileSystem();
    long[] ids = ((DistributedFileSystem) fs).getClient()
        .getLocatedBlocks(INPUT.toString(), 0).getLocatedBlocks().stream()
        .mapToLong(b -> b.getBlock().getBlockId()).toArray();
    try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
        .connect(cluster.clientConf(), cluster.masterAddress(), 10_000)) {
      return master.cachedOn(ids).stream()
          .map(uuids -> uuids.stream().map(hostOf::get).collect(Collectors.toSet())).toList();
    }
  }

  /** The hosts of each input block's replicas, by block index. */
  private List<Set<String>> replicaHosts() throws IOException {
    return ((DistributedFileSystem) cluster.dfs().getFileSystem()).getClient()
        .getLocatedBlocks(INPUT.toString(), 0).getLocatedBlocks().stream()
        .map(b -> java.util.Arrays.stream(b.getLocations()).map(d -> d.getHostName())
            .collect(Collectors.toSet()))
        .toList();
  }

  private long slaveCounter(CacheCounter counter) {
    long sum = 0;
    for (DataNode dataNode : cluster.dfs().getDataNodes()) {
      sum += ((MpCacheFsDataset) dataNode.getFSDataset()).getInputCache().counter(counter);
    }
    return sum;
  }

  private static long counter(Counters counters, Enum<?> key) {
    return counters.findCounter(key).getValue();
  }

  @Test
  @Order(1)
  void aJobAsksYarnForAllItsMapsInOneRequest() throws Exception {
    Job job = readJob(true);
    // Heartbeats far more often than the map inputs can be looked up: asks sent while the
    // maps are being located would reach YARN a few at a time.
    job.getConfiguration().setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 5);
    run(job);
    assertEquals(BLOCKS, FirstMapAsks.of(TypeConverter.toYarn(job.getJobID()).getAppId()),
        "maps in the job's first request for maps; fewer: the allocator asked while it was"
            + " still locating inputs, and YARN allocates for what it was asked (surplus"
            + " containers, placement unlike stock: docs/architecture.md). None: the recorder"
            + " no longer sees MapReduce's map priority (RMContainerAllocator.PRIORITY_MAP)");
  }

  @Test
  @Order(2)
  void aRerunRunsItsMapsWhereTheSsdCopiesAreAndReadsThem() throws Exception {
    Job warm = readJob(true);
    run(warm);
    GenericTestUtils.waitFor(() -> {
      try {
        return ssdHolders().stream().noneMatch(Set::isEmpty);
      } catch (IOException e) {
        return false;
      }
    }, 200, 60_000, "every input block on some SSD after the first run");
    List<Set<String>> holders = ssdHolders();
    long fromSsdBefore = slaveCounter(CacheCounter.BYTES_FROM_SSD);

    Job rerun = readJob(true);
    run(rerun);
    Counters counters = rerun.getCounters();
    Map<Integer, String> ranOn = mapHosts(rerun);
    long cacheLocal = counter(counters, CacheLocalityCounter.CACHE_LOCAL_MAPS);
    long onSsd = counter(counters, CacheLocalityCounter.SSD_INPUT_MAPS);
    assertEquals(BLOCKS, onSsd, "every map's block was on an SSD: " + holders);
    assertTrue(cacheLocal >= 0.9 * onSsd, "cache-local maps " + cacheLocal + " of " + onSsd
        + "; ran on " + ranOn + ", SSD copies on " + holders + ". None at all: the maps were"
        + " placed stock, so CacheLocalContainerAllocator's reach into RMContainerAllocator (its"
        + " scheduled and assigned request tables, getAsk, makeRemoteRequest) no longer places"
        + " them (docs/architecture.md, Hadoop internals)");
    long confirmed = ranOn.entrySet().stream()
        .filter(e -> holders.get(e.getKey()).contains(e.getValue())).count();
    assertEquals(cacheLocal, confirmed, "the counter agrees with where the maps ran: " + ranOn);
    long fromSsd = slaveCounter(CacheCounter.BYTES_FROM_SSD) - fromSsdBefore;
    assertTrue(fromSsd >= 0.9 * BLOCKS * MultiHostCluster.BLOCK,
        "the maps read " + fromSsd + " bytes from SSD copies of " + BLOCKS * MultiHostCluster.BLOCK);
  }

  @Test
  @Order(3)
  void aMapWhoseSsdNodeIsFullRunsOnItsOtherReplicaNodeAfterTheWait() throws Exception {
    List<Set<String>> holders = ssdHolders();
    List<Set<String>> replicas = replicaHosts();
    // The node that alone holds the most blocks on SSD has no room for a task.
    Map<String, Long> soleCopies = holders.stream().filter(h -> h.size() == 1)
        .flatMap(Set::stream).collect(Collectors.groupingBy(h -> h, Collectors.counting()));
    assertFalse(soleCopies.isEmpty(), "some block is on one SSD only: " + holders);
    String full =
        soleCopies.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
    List<Integer> onlyOnFull = new ArrayList<>();
    for (int i = 0; i < BLOCKS; i++) {
      if (holders.get(i).equals(Set.of(full))) {
        onlyOnFull.add(i);
      }
    }
    setMemory(full, 256);
    try {
      Job job = readJob(true);
      // The replica nodes' wait outlasts any load on the test machine: what is checked here is
      // where a map goes when its SSD node is full, not how long the replica nodes take.
      job.getConfiguration().setLong(MpCacheConfigKeys.MPCACHE_LOCALITY_REPLICA_WAIT_KEY,
          REPLICA_WAIT_MILLIS);
      run(job);
      Counters counters = job.getCounters();
      Map<Integer, String> ranOn = mapHosts(job);
      assertEquals(onlyOnFull.size(),
          counter(counters, CacheLocalityCounter.CACHE_WAIT_EXPIRED_MAPS),
          "maps that stopped waiting for " + full + "; ran on " + ranOn + ", SSD copies on "
              + holders);
      for (int i : onlyOnFull) {
        assertTrue(replicas.get(i).contains(ranOn.get(i)) && !full.equals(ranOn.get(i)),
            "map " + i + " ran on " + ranOn.get(i) + ", not on its other replica's node ("
                + replicas.get(i) + ")");
      }
      assertEquals(counter(counters, JobCounter.TOTAL_LAUNCHED_MAPS),
          counter(counters, JobCounter.DATA_LOCAL_MAPS), "every map ran on a replica's node");
    } finally {
      setMemory(full, MultiHostCluster.NODE_MB);
    }
  }

  @Test
  @Order(4)
  void withoutMpCacheTheSameJobShowsOrdinaryNodeLocality() throws Exception {
    Job job = readJob(false);
    run(job);
    Counters counters = job.getCounters();
    assertEquals(0, counter(counters, CacheLocalityCounter.SSD_INPUT_MAPS));
    assertEquals(0, counter(counters, CacheLocalityCounter.CACHE_LOCAL_MAPS));
    assertEquals(BLOCKS, counter(counters, JobCounter.TOTAL_LAUNCHED_MAPS));
    assertTrue(counter(counters, JobCounter.DATA_LOCAL_MAPS) > 0,
        "stock delay scheduling places maps on replica nodes: " + counters);
  }

  /** Sets a node's memory for containers, as {@code yarn rmadmin -updateNodeResource} does. */
  private void setMemory(String host, int megabytes) throws Exception {
    NodeId node = cluster.yarn().getResourceManager().getRMContext().getRMNodes().keySet()
        .stream().filter(id -> id.getHost().equals(host)).findFirst().orElseThrow();
    cluster.yarn().getResourceManager().getRMContext().getRMAdminService().updateNodeResource(
        UpdateNodeResourceRequest.newInstance(Map.of(node,
            ResourceOption.newInstance(Resource.newInstance(megabytes, 8), -1))));
    GenericTestUtils.waitFor(() -> {
      RMNode rmNode = cluster.yarn().getResourceManager().getRMContext().getRMNodes().get(node);
      return rmNode.getTotalCapability().getMemorySize() == megabytes;
    }, 100, 30_000, host + " has " + megabytes + " MB for containers");
  }
}
