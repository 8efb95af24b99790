package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
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
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
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
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.tools.FreePorts;

/**
 * Three DataNodes on hosts h1, h2, h3 with mpCache and its master; a file with three replicas
 * whose blocks were read once, so each is on the SSD of the node that served it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TestMpCacheDistributedFileSystem {
  private static final int BLOCK = 256 * 1024;
  private static final Path DIR = new Path("/input");
  private static final Path FILE = new Path(DIR, "part-0");

  private final File work = GenericTestUtils.getTestDir("cachelocality");
  private MiniDFSCluster dfs;
  private Configuration conf;
  private InetSocketAddress masterAddress;
  /** DataNode UUID to its host name. */
  private final Map<String, String> hosts = new HashMap<>();

  @BeforeAll
  void start() throws Exception {
    FileUtil.fullyDelete(work);
    masterAddress = new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = new Configuration();
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 3);
    conf.set(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, DATASET_FACTORY_CLASS);
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, true);
    conf.set(DFS_MPCACHE_CAPACITY_KEY, "8m");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, NetUtils.getHostPortString(masterAddress));
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "200ms");
    Configuration[] overlays = new Configuration[3];
    for (int i = 0; i < overlays.length; i++) {
      overlays[i] = new Configuration(false);
      File ssd = new File(work, "ssd" + i);
      ssd.mkdirs();
      overlays[i].set(DFS_MPCACHE_DIRS_KEY, ssd.getAbsolutePath());
    }
    dfs = new MiniDFSCluster.Builder(conf, new File(work, "dfs")).numDataNodes(3)
        .hosts(new String[] {"h1", "h2", "h3"}).dataNodeConfOverlays(overlays).build();
    dfs.waitActive();
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
    if (dfs != null) {
      dfs.shutdown();
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
    client.set(LocalityMode.KEY, mode);
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
}
