package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.tools.FreePorts;

/**
 * Three DataNodes on hosts of their own with mpCache and its master; a file with three replicas
 * whose blocks were read once, so each is on the SSD of the node that served it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TestMpCacheDistributedFileSystem {
  private static final int BLOCK = MultiHostCluster.BLOCK;
  private static final Path DIR = new Path("/input");
  private static final Path FILE = new Path(DIR, "part-0");

  private MultiHostCluster cluster;
  private MiniDFSCluster dfs;
  private Configuration conf;
  private InetSocketAddress masterAddress;
  /** DataNode UUID to its host name. */
  private final Map<String, String> hosts = new HashMap<>();

  @BeforeAll
  void start() throws Exception {
    cluster = new MultiHostCluster("cachelocality", 3, new Configuration(), false);
    dfs = cluster.dfs();
    conf = cluster.dfsConf();
    masterAddress = cluster.masterAddress();
    for (DataNode dataNode : dfs.getDataNodes()) {
      hosts.put(dataNode.getDatanodeUuid(), dataNode.getDatanodeId().getHostName());
    }
    byte[] data = new byte[3 * BLOCK];
    new Random(7).nextBytes(data);
    try (OutputStream out = dfs.getFileSystem().create(FILE)) {
      out.write(data);
    }
    GenericTestUtils.waitFor(() -> {
      try (InputStream in = dfs.getFileSystem().open(FILE)) {
        IOUtils.copyBytes(in, OutputStream.nullOutputStream(), 1 << 16, false);
        return ssdHolders().stream().allMatch(holders -> !holders.isEmpty());
      } catch (IOException e) {
        return false;
      }
    }, 200, 60_000, "every block of " + FILE + " to have an SSD copy");
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The master's answer for each block of the file, as host names. */
  private List<List<String>> ssdHolders() throws IOException {
    long[] ids = dfs.getFileSystem().getClient().getLocatedBlocks(FILE.toString(), 0)
        .getLocatedBlocks().stream().mapToLong(b -> b.getBlock().getBlockId()).toArray();
    try (MasterProtocolClientSideTranslatorPB master =
        MasterProtocolClientSideTranslatorPB.connect(conf, masterAddress, 10_000)) {
      return master.cachedOn(ids).stream()
          .map(uuids -> uuids.stream().map(hosts::get).sorted().toList()).toList();
    }
  }

  private FileSystem fileSystem(String mode, String masterAddressValue) throws IOException {
    Configuration client = new Configuration(conf);
    client.set("fs.hdfs.impl", MpCacheDistributedFileSystem.class.getName());
    // FileSystem.get's cache holds the cluster's plain instance for the same URI and user.
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    client.set(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_KEY, mode);
    client.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, masterAddressValue);
    FileSystem fs = FileSystem.newInstance(dfs.getURI(), client);
    assertInstanceOf(MpCacheDistributedFileSystem.class, fs);
    return fs;
  }

  private String master() {
    return NetUtils.getHostPortString(masterAddress);
  }

  @Test
  void cacheOnlyNamesTheSsdHoldersAsTheHosts() throws Exception {
    List<List<String>> expected = ssdHolders();
    try (FileSystem fs = fileSystem("cache-only", master())) {
      BlockLocation[] blocks = fs.getFileBlockLocations(FILE, 0, 3 * BLOCK);
      assertEquals(3, blocks.length);
      for (int i = 0; i < blocks.length; i++) {
        assertEquals(expected.get(i), List.of(blocks[i].getHosts()).stream().sorted().toList());
        assertArrayEquals(blocks[i].getHosts(), blocks[i].getCachedHosts());
      }
    }
  }

  @Test
  void fileInputFormatSplitsGoToTheSsdHolders() throws Exception {
    List<List<String>> expected = ssdHolders();
    try (FileSystem fs = fileSystem("cache-only", master())) {
      Job job = Job.getInstance(fs.getConf());
      FileInputFormat.addInputPath(job, DIR); // a directory: listed with its locations
      FileInputFormat.setMaxInputSplitSize(job, BLOCK);
      List<InputSplit> splits = new TextInputFormat().getSplits(job);
      assertEquals(3, splits.size());
      for (int i = 0; i < splits.size(); i++) {
        assertEquals(expected.get(i),
            List.of(splits.get(i).getLocations()).stream().sorted().toList());
      }
    }
  }

  @Test
  void oldApiSplitsGoToTheSsdHolders() throws Exception {
    List<List<String>> expected = ssdHolders();
    try (FileSystem fs = fileSystem("cache-only", master())) {
      JobConf job = new JobConf(fs.getConf());
      org.apache.hadoop.mapred.FileInputFormat.addInputPath(job, DIR);
      org.apache.hadoop.mapred.TextInputFormat format =
          new org.apache.hadoop.mapred.TextInputFormat();
      format.configure(job);
      org.apache.hadoop.mapred.InputSplit[] splits = format.getSplits(job, 3); // a block each
      assertEquals(3, splits.length);
      for (int i = 0; i < splits.length; i++) {
        assertEquals(expected.get(i), List.of(splits[i].getLocations()).stream().sorted().toList());
      }
    }
  }

  @Test
  void combinedSplitsGroupBlocksOnTheirSsdHolders() throws Exception {
    List<List<String>> expected = ssdHolders();
    try (FileSystem fs = fileSystem("cache-only", master())) {
      Job job = Job.getInstance(fs.getConf());
      FileInputFormat.addInputPath(job, DIR);
      FileInputFormat.setMaxInputSplitSize(job, BLOCK);
      int blocks = 0;
      for (InputSplit split : new CombineTextInputFormat().getSplits(job)) {
        CombineFileSplit combined = (CombineFileSplit) split;
        assertEquals(1, combined.getLocations().length, "a node-level split");
        for (int i = 0; i < combined.getNumPaths(); i++, blocks++) {
          List<String> holders = expected.get((int) (combined.getOffset(i) / BLOCK));
          assertTrue(holders.contains(combined.getLocations()[0]),
              "block at " + combined.getOffset(i) + " is on SSD at " + holders + ", not at "
                  + combined.getLocations()[0]);
        }
      }
      assertEquals(3, blocks);
    }
  }

  @Test
  void annotateKeepsEveryReplicaAndNamesTheCachedHosts() throws Exception {
    List<List<String>> expected = ssdHolders();
    try (FileSystem fs = fileSystem("annotate", master())) {
      BlockLocation[] blocks = fs.getFileBlockLocations(FILE, 0, 3 * BLOCK);
      for (int i = 0; i < blocks.length; i++) {
        assertEquals(3, blocks[i].getHosts().length);
        assertEquals(expected.get(i),
            List.of(blocks[i].getCachedHosts()).stream().sorted().toList());
      }
    }
  }

  @Test
  void withoutAnAnsweringMasterTheLocationsAreStock() throws Exception {
    String nobody = "127.0.0.1:" + FreePorts.outsideEphemeralRange();
    try (FileSystem fs = fileSystem("cache-only", nobody)) {
      for (BlockLocation block : fs.getFileBlockLocations(FILE, 0, 3 * BLOCK)) {
        assertEquals(3, block.getHosts().length);
        assertEquals(0, block.getCachedHosts().length);
      }
    }
  }

  @Test
  void readersOffTheBlocksNodesReadTheSsdCopies() throws Exception {
    List<List<String>> expected = ssdHolders();
    long fromSsd = bytesFromSsd();
    try (FileSystem fs = fileSystem("cache-only", master())) {
      List<LocatedBlock> blocks = ((DistributedFileSystem) fs).getClient()
          .getLocatedBlocks(FILE.toString(), 0).getLocatedBlocks();
      for (int i = 0; i < blocks.size(); i++) {
        assertTrue(expected.get(i).contains(blocks.get(i).getLocations()[0].getHostName()),
            "block " + i + " is read first from " + blocks.get(i).getLocations()[0]
                + ", not from its SSD copy at " + expected.get(i));
      }
      try (InputStream in = fs.open(FILE)) {
        IOUtils.copyBytes(in, OutputStream.nullOutputStream(), 1 << 16, false);
      }
    }
    assertEquals(3L * BLOCK, bytesFromSsd() - fromSsd, "the whole file came from SSD copies");
  }

  private long bytesFromSsd() {
    return dfs.getDataNodes().stream().mapToLong(dataNode -> ((MpCacheFsDataset) dataNode
        .getFSDataset()).getInputCache().counter(CacheCounter.BYTES_FROM_SSD)).sum();
  }
}
