package org.mpcache.replay;

import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.BlockReader;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.impl.BlockReaderTestUtil;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.test.MetricsAsserts;
import org.mpcache.master.MasterMetrics;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.simulator.PolicySimulator;
import org.mpcache.simulator.PumaWorkload;
import org.mpcache.simulator.Trace;
import org.mpcache.simulator.TraceJob;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.tools.FreePorts;

/**
 * Replays a trace on a MiniDFSCluster running the product: one DataNode per trace node, each
 * with the slave and an SSD dir holding the trace's cache blocks per node, the master in the
 * NameNode with the policy under test. Each trace block is a one-block file of its data set's
 * directory, placed on the trace's replica nodes; each read reads one block whole through the
 * DataNode's read path, at the node the simulator would send it to: the first replica node the
 * master's cache-aware locations name, else the trace's named node. Jobs run one after another;
 * a job's reads run on a few reader threads per node, or one at a time ({@code readers = 0}).
 * After each job (after each read when one at a time) the replay settles: fills end, and every
 * slave heartbeats, so the master has heard of every hit and each node deleted what it was told.
 *
 * <p>A read counts as a hit when its DataNode served it from an SSD copy (the slave's hit
 * counter); one at a time this is known per read, otherwise per job.
 */
public final class TraceReplay implements AutoCloseable {
  private final Trace trace;
  private final int blockBytes;
  private final CacheTestCluster cluster;
  private final Configuration conf;
  private final InetSocketAddress masterAddress;
  private final MasterProtocolClientSideTranslatorPB master;
  private final Map<String, Integer> nodeOfUuid = new HashMap<>();
  /** HDFS's block for each trace block, by trace block id. */
  private final Map<Long, LocatedBlock> blocks = new HashMap<>();
  private final int readersPerNode;
  /** Reader threads by node, when reads run in parallel. */
  private final List<ExecutorService> readers = new ArrayList<>();

  /** What the replay saw of one job. */
  public record JobOutcome(int blocks, int hits, long bytesFromSsd, int[] readerNodes,
      boolean[] readHits) {
    public boolean allHit() {
      return hits == blocks;
    }
  }

  /**
   * Refuses a trace with a job that reads part of its data set: the master forms a data-set
   * access from a pass over as many blocks as the data set holds (docs/policies.md, "Real
   * workloads").
   */
  public static void requireWholeReads(Trace trace) {
    for (TraceJob job : trace) {
      if (!job.readsWhole()) {
        throw new IllegalArgumentException("the replay reads data sets whole; a job over data "
            + "set " + job.dataSet().id() + " reads " + job.reads() + " of its "
            + job.dataSet().blocks() + " blocks");
      }
    }
  }

  /**
   * Starts the cluster with the master running {@code policy} and writes the blocks the trace
   * reads. {@code readersPerNode} 0 reads one block at a time, settling after each.
   */
  public TraceReplay(Trace trace, String policy, int blockBytes, int readersPerNode,
      String name) throws IOException {
    requireWholeReads(trace);
    this.trace = trace;
    this.blockBytes = blockBytes;
    this.readersPerNode = readersPerNode;
    PolicySimulator.Settings settings = trace.settings();
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.conf();
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockBytes);
    // Few checksum bytes a block, so that the cache holds exactly its share of whole blocks.
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, Math.min(blockBytes, 4096));
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, PumaWorkload.REPLICATION);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SCANNER_VOLUME_BYTES_PER_SECOND, 0);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_MASTER_POLICY_KEY, policy);
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h"); // the replay heartbeats when it settles
    conf.set(DFS_MPCACHE_MASTER_EXPIRY_KEY, "1h");
    // The master counts whole blocks (capacity / block size); the slave counts bytes, with
    // checksums: room for the trace's blocks a node and their checksums, short of one more.
    conf.setLong(DFS_MPCACHE_CAPACITY_KEY,
        (long) settings.cacheBlocksPerNode() * blockBytes + blockBytes - 1);
    cluster = CacheTestCluster.start(name, conf, settings.nodes(), null);
    master = MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 60_000);
    List<DataNode> dataNodes = cluster.mini().getDataNodes();
    for (int i = 0; i < dataNodes.size(); i++) {
      nodeOfUuid.put(dataNodes.get(i).getDatanodeUuid(), i);
      if (readersPerNode > 0) {
        readers.add(Executors.newFixedThreadPool(readersPerNode));
      }
    }
    try {
      cluster.waitMasterActive(conf, masterAddress);
    } catch (Exception e) {
      throw new IOException(e);
    }
    writeBlocks();
  }

  /** Writes every block the trace reads, once, as a file of its data set's directory. */
  private void writeBlocks() throws IOException {
    Map<Long, int[]> replicasOf = new LinkedHashMap<>();
    Map<Long, Integer> dataSetOf = new HashMap<>();
    for (TraceJob job : trace) {
      for (int i = 0; i < job.dataSet().blocks(); i++) {
        int[] nodes = new int[PumaWorkload.REPLICATION];
        for (int r = 0; r < nodes.length; r++) {
          nodes[r] = job.replica(i, r);
        }
        replicasOf.putIfAbsent(job.block(i), nodes);
        dataSetOf.putIfAbsent(job.block(i), job.dataSet().id());
      }
    }
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (Map.Entry<Long, int[]> block : replicasOf.entrySet()) {
        written.add(writers.submit(() -> {
          writeBlock(block.getKey(), dataSetOf.get(block.getKey()), block.getValue());
          return null;
        }));
      }
      for (Future<?> f : written) {
        f.get();
      }
    } catch (Exception e) {
      throw new IOException("writing the trace's blocks failed", e);
    } finally {
      writers.shutdownNow();
    }
  }

  private void writeBlock(long block, int dataSet, int[] nodes) throws IOException {
    List<DataNode> dataNodes = cluster.mini().getDataNodes();
    InetSocketAddress[] favored = new InetSocketAddress[nodes.length];
    for (int r = 0; r < nodes.length; r++) {
      favored[r] = dataNodes.get(nodes[r]).getXferAddress();
    }
    Path file = new Path("/replay/ds-" + dataSet, "b-" + block);
    try (FSDataOutputStream out = cluster.fs().create(file, FsPermission.getFileDefault(), true,
        4096, (short) nodes.length, blockBytes, null, favored)) {
      out.write(contents(block));
    }
    LocatedBlock[] reported = new LocatedBlock[1];
    try {
      GenericTestUtils.waitFor(() -> {
        try {
          reported[0] = cluster.blocks(file).get(0);
          return reported[0].getLocations().length == nodes.length;
        } catch (IOException e) {
          return false;
        }
      }, 5, 60_000, file + " to have its replicas reported");
    } catch (TimeoutException | InterruptedException e) {
      throw new IOException(file + ": replicas not reported", e);
    }
    LocatedBlock located = reported[0];
    Set<Integer> placed = new TreeSet<>();
    for (DatanodeInfo location : located.getLocations()) {
      placed.add(nodeOfUuid.get(location.getDatanodeUuid()));
    }
    Set<Integer> wanted = new TreeSet<>();
    Arrays.stream(nodes).forEach(wanted::add);
    if (!placed.equals(wanted)) {
      throw new IOException(file + " was placed on nodes " + placed + ", the trace says "
          + wanted);
    }
    synchronized (blocks) {
      blocks.put(block, located);
    }
  }

  private byte[] contents(long block) {
    byte[] bytes = new byte[blockBytes];
    new SplittableRandom(block).nextBytes(bytes);
    return bytes;
  }

  /** Replays one job and returns what its reads found. */
  public JobOutcome replay(TraceJob job) throws Exception {
    int count = job.dataSet().blocks();
    long[] ids = new long[count];
    for (int i = 0; i < count; i++) {
      ids[i] = blocks.get(job.block(i)).getBlock().getBlockId();
    }
    List<List<String>> holders = master.cachedOn(ids);
    int[] readerNode = new int[count];
    for (int i = 0; i < count; i++) {
      List<String> uuids = holders.get(i);
      readerNode[i] = PolicySimulator.readerOf(job, i,
          (node, block) -> uuids.stream().anyMatch(u -> nodeOfUuid.get(u) == node));
    }
    long hitsBefore = cluster.total(CacheCounter.HITS);
    long bytesBefore = cluster.total(CacheCounter.BYTES_FROM_SSD);
    boolean[] readHits = null;
    if (oneAtATime()) {
      readHits = new boolean[count];
      for (int i = 0; i < count; i++) {
        InputCache cache = cluster.cache(readerNode[i]);
        long before = cache.counter(CacheCounter.HITS);
        read(job.block(i), readerNode[i]);
        readHits[i] = cache.counter(CacheCounter.HITS) > before;
        settle();
      }
    } else {
      List<Future<?>> reads = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long block = job.block(i);
        int node = readerNode[i];
        reads.add(readers.get(node).submit(() -> {
          read(block, node);
          if (readersPerNode == 1) {
            // The node's next read waits for this fill to end: its admissions reach the master
            // in the trace's order, as the simulator's do.
            InputCache cache = cluster.cache(node);
            GenericTestUtils.waitFor(() -> cache.fillsUnderWay() == 0, 1, 60_000, "fills");
          }
          return null;
        }));
      }
      for (Future<?> read : reads) {
        read.get();
      }
      settle();
    }
    int hits = (int) (cluster.total(CacheCounter.HITS) - hitsBefore);
    return new JobOutcome(count, hits, cluster.total(CacheCounter.BYTES_FROM_SSD) - bytesBefore,
        readerNode, readHits);
  }

  private boolean oneAtATime() {
    return readersPerNode == 0;
  }

  /** Reads the block whole from the node's DataNode and checks its bytes. */
  private void read(long block, int node) throws IOException {
    LocatedBlock located = blocks.get(block);
    DatanodeInfo target = Arrays.stream(located.getLocations())
        .filter(d -> nodeOfUuid.get(d.getDatanodeUuid()) == node).findFirst()
        .orElseThrow(() -> new IOException("block " + block + " has no replica on node " + node));
    LocatedBlock there = new LocatedBlock(located.getBlock(), new DatanodeInfo[] {target});
    byte[] read = new byte[blockBytes];
    try (BlockReader reader = BlockReaderTestUtil.getBlockReader(cluster.fs(), there, 0,
        blockBytes)) {
      reader.readFully(read, 0, blockBytes);
    }
    if (!Arrays.equals(contents(block), read)) {
      throw new IOException("node " + node + " served other bytes for trace block " + block);
    }
  }

  /** Waits for every fill to end, then lets every slave heartbeat. */
  private void settle() throws Exception {
    cluster.waitFillsEnded();
    cluster.heartbeatAll();
  }

  /** The master's counter, as its metrics source publishes it. */
  public long masterCounter(MasterCounter counter) {
    MetricsRecordBuilder metrics = MetricsAsserts.getMetrics(MasterMetrics.SOURCE);
    return MetricsAsserts.getLongCounter(counter.metricName(), metrics);
  }

  /** The sum of a slave counter over every DataNode. */
  public long slaveTotal(CacheCounter counter) {
    return cluster.total(counter);
  }

  @Override
  public void close() {
    readers.forEach(ExecutorService::shutdownNow);
    if (master != null) {
      master.close();
    }
    cluster.close();
  }
}
