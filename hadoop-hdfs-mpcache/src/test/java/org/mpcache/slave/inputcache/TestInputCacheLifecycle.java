package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;
import static org.mpcache.slave.inputcache.CacheTestCluster.BLOCK_SIZE;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.SlaveMetrics;

/** Restarts, bad settings and failing SSD dirs, the disabled key, and the metrics in JMX. */
@Timeout(180)
class TestInputCacheLifecycle {

  @Test
  void aRestartKeepsTheWarmCacheAndDiscardsStaleCopies() throws Exception {
    try (CacheTestCluster cluster =
        CacheTestCluster.start("restart", CacheTestCluster.conf(), 1, null)) {
      Path warm = new Path("/warm");
      Path stale = new Path("/stale");
      byte[] data = cluster.write(warm, 3 * BLOCK_SIZE, 1);
      cluster.write(stale, BLOCK_SIZE, 2);
      cluster.read(warm);
      cluster.read(stale);
      cluster.waitCached(warm);
      cluster.waitCached(stale);
      // A copy from another generation of the replica than the one the DataNode will load.
      LocatedBlock staleBlock = cluster.blocks(stale).get(0);
      File staleCopy = cluster.copyDataFile(staleBlock);
      File olderGeneration = new File(staleCopy.getParent(),
          "blk_" + staleBlock.getBlock().getBlockId() + "_1_7");

      MiniDFSCluster.DataNodeProperties stopped = cluster.mini().stopDataNode(0);
      Files.move(staleCopy.toPath(), olderGeneration.toPath());
      Files.move(new File(staleCopy + ".meta").toPath(),
          new File(olderGeneration + ".meta").toPath());
      cluster.mini().restartDataNode(stopped, true);
      cluster.mini().waitActive();
      cluster.waitCopiesTakenIn();
      cluster.garbleHddReplicas(warm);

      assertArrayEquals(data, cluster.read(warm));
      assertEquals(3, cluster.counter(0, CacheCounter.HITS));
      assertEquals(0, cluster.counter(0, CacheCounter.FILLS));
      assertEquals(1, cluster.counter(0, CacheCounter.STALE_DISCARDED));
      assertFalse(olderGeneration.exists());
      assertFalse(cluster.isCached(cluster.blocks(stale).get(0)));

      // Not a clean stop this time (a crash leaves no mpcache/CLEAN), and a copy lost what was
      // written last: every copy is read and verified before it serves, and that one dropped.
      List<LocatedBlock> warmBlocks = cluster.blocks(warm);
      File lost = cluster.copyDataFile(warmBlocks.get(1));
      stopped = cluster.mini().stopDataNode(0);
      Files.delete(new File(cluster.baseDir(), "ssd0/mpcache/CLEAN").toPath());
      CacheTestCluster.overwrite(lost, BLOCK_SIZE / 2, 100);
      cluster.mini().restartDataNode(stopped, true);
      cluster.mini().waitActive();
      cluster.waitCopiesTakenIn();
      assertEquals(1, cluster.counter(0, CacheCounter.CORRUPT_DROPPED), "found at adoption");
      assertFalse(lost.exists());
      assertTrue(cluster.isCached(warmBlocks.get(0)));
      assertFalse(cluster.isCached(warmBlocks.get(1)));
      assertTrue(cluster.isCached(warmBlocks.get(2)));
      cluster.garbleHddReplicas(warm); // flipped back: the dropped copy's block reads from HDD
      assertArrayEquals(data, cluster.read(warm));
    }
  }

  @Test
  void theCachesDirsGetTheDataNodesDataDirPermission() throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.set(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_DATANODE_DATA_DIR_PERMISSION_KEY, "750");
    try (CacheTestCluster cluster = CacheTestCluster.start("permissions", conf, 1, null)) {
      Path file = new Path("/file");
      cluster.writeCached(file, BLOCK_SIZE, 9);
      File copy = cluster.copyDataFile(cluster.blocks(file).get(0));
      File ssd = new File(cluster.baseDir(), "ssd0");
      for (File dir = copy.getParentFile(); !dir.equals(ssd); dir = dir.getParentFile()) {
        assertEquals("rwxr-x---", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.toPath())), dir.toString());
      }
      assertEquals("rwxr-x---", java.nio.file.attribute.PosixFilePermissions.toString(
          Files.getPosixFilePermissions(new File(ssd, "mpcache/tmp").toPath())));
      // Copy files as the DataNode makes block files (its umask decides), both alike.
      File fresh = new File(copy.getParentFile(), "fresh");
      new java.io.FileOutputStream(fresh).close();
      var expected = Files.getPosixFilePermissions(fresh.toPath());
      assertEquals(expected, Files.getPosixFilePermissions(copy.toPath()));
      assertEquals(expected, Files.getPosixFilePermissions(new File(copy + ".meta").toPath()));
      assertTrue(fresh.delete());
    }
  }

  @Test
  void aMissingSsdDirLeavesTheDataNodeServingFromHdd() throws Exception {
    try (CacheTestCluster cluster = CacheTestCluster.start("missing-dir",
        CacheTestCluster.conf(), 1, dn -> FileUtil.fullyDelete(dn.ssdDir()))) {
      Path file = new Path("/file");
      byte[] data = cluster.write(file, 2 * BLOCK_SIZE, 3);
      assertArrayEquals(data, cluster.read(file));
      assertArrayEquals(data, cluster.read(file));
      InputCache cache = cluster.cache(0);
      assertFalse(cache.enabled());
      assertTrue(cache.disabledReason().contains(DFS_MPCACHE_DIRS_KEY), cache.disabledReason());
      assertTrue(cache.failedDirs().get(0).contains("does not exist"), cache.failedDirs().get(0));
    }
  }

  @Test
  void aBadValueDisablesTheCacheNamingTheKey() throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFS_MPCACHE_CAPACITY_KEY, "plenty");
    try (CacheTestCluster cluster = CacheTestCluster.start("bad-value", conf, 1, null)) {
      Path file = new Path("/file");
      byte[] data = cluster.write(file, BLOCK_SIZE, 4);
      assertArrayEquals(data, cluster.read(file));
      assertTrue(cluster.cache(0).disabledReason().contains(DFS_MPCACHE_CAPACITY_KEY));
    }
  }

  @Test
  void aFileAmongTheDirsIsSkippedAndTheOtherDirUsed() throws Exception {
    try (CacheTestCluster cluster = CacheTestCluster.start("one-bad-dir",
        CacheTestCluster.conf(), 1, dn -> {
          File notADir = new File(dn.ssdDir().getParentFile(), "not-a-dir");
          try {
            Files.writeString(notADir.toPath(), "x");
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          dn.overlay().set(DFS_MPCACHE_DIRS_KEY, notADir + "," + dn.ssdDir());
        })) {
      Path file = new Path("/file");
      byte[] data = cluster.writeCached(file, BLOCK_SIZE, 5);
      cluster.garbleHddReplicas(file);
      assertArrayEquals(data, cluster.read(file));
      assertTrue(cluster.cache(0).failedDirs().get(0).contains("not a directory"));
    }
  }

  @Test
  void anSsdDirThatFailsAtRunTimeIsTakenOutOfUseAndAReplacementUsedAfterARestart()
      throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFS_MPCACHE_DIR_CHECK_KEY, "200ms");
    try (CacheTestCluster cluster =
        CacheTestCluster.start("runtime-failure", conf, 1, null)) {
      Path file = new Path("/file");
      byte[] data = cluster.writeCached(file, 2 * BLOCK_SIZE, 6);
      // The device disappears: its directory is gone, copies with it.
      File ssd = new File(cluster.baseDir(), "ssd0");
      FileUtil.fullyDelete(ssd);

      assertArrayEquals(data, cluster.read(file));
      InputCache cache = cluster.cache(0);
      // The failed open had the dir checked, off the reader's thread.
      GenericTestUtils.waitFor(() -> !cache.enabled(), 20, 30_000, "the cache turns itself off");
      assertTrue(cache.disabledReason().contains(DFS_MPCACHE_DIRS_KEY));
      assertArrayEquals(data, cluster.read(file));
      cluster.assertNoCorruptReplicas();

      // A new device is mounted in its place, the DataNode running on: taken for a bare mount
      // point, it stays out of use until the DataNode restarts.
      assertTrue(ssd.mkdirs());
      GenericTestUtils.waitFor(() -> cache.failedDirs().get(0).contains("is not mounted, or was"
          + " replaced"), 20, 30_000, "the new device refused, saying why");
      assertTrue(cluster.mini().restartDataNode(0, true));
      cluster.mini().waitActive();
      GenericTestUtils.waitFor(() -> cluster.cache(0).enabled(), 20, 30_000,
          "the new device in use after the restart");
      cluster.read(file);
      cluster.waitCached(file);
      cluster.garbleHddReplicas(file);
      assertArrayEquals(data, cluster.read(file), "served from copies on the new device");
    }
  }

  @Test
  void withTheKeyOffTheDataNodeRunsTheStockDataset() throws Exception {
    Configuration conf = CacheTestCluster.conf();
    conf.setBoolean(DFS_MPCACHE_ENABLED_KEY, false);
    try (CacheTestCluster cluster = CacheTestCluster.start("disabled", conf, 1, null)) {
      assertEquals("org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl",
          cluster.mini().getDataNodes().get(0).getFSDataset().getClass().getName());
      Path file = new Path("/file");
      byte[] data = cluster.write(file, BLOCK_SIZE, 7);
      assertArrayEquals(data, cluster.read(file));
      assertEquals(0, new File(cluster.baseDir(), "ssd0").list().length);
    }
  }

  @Test
  void countersAndStateAreVisibleInJmx() throws Exception {
    try (CacheTestCluster cluster =
        CacheTestCluster.start("jmx", CacheTestCluster.conf(), 1, null)) {
      Path file = new Path("/file");
      cluster.writeCached(file, 2 * BLOCK_SIZE, 8);
      cluster.read(file);

      DataNode dn = cluster.mini().getDataNodes().get(0);
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> names = server.queryNames(new ObjectName(
          "Hadoop:service=*,name=" + SlaveMetrics.sourceName(dn.getDatanodeUuid())), null);
      assertEquals(1, names.size(), "one MBean for the DataNode's slave");
      ObjectName name = names.iterator().next();
      // JMX shows a snapshot refreshed every metrics period (1 s in the test configuration).
      GenericTestUtils.waitFor(() -> attribute(server, name, "Hits").equals(2L), 100, 30_000,
          "Hits in JMX");
      assertEquals(2L, server.getAttribute(name, "Misses"));
      assertEquals(2L, server.getAttribute(name, "Fills"));
      assertEquals(2L * BLOCK_SIZE, server.getAttribute(name, "BytesFromSsd"));
      assertEquals(2L * BLOCK_SIZE, server.getAttribute(name, "BytesFromHdd"));
      assertEquals(8L << 20, server.getAttribute(name, "CapacityBytes"));
      assertTrue((Long) server.getAttribute(name, "UsedBytes") > 2L * BLOCK_SIZE);
      assertEquals(2, server.getAttribute(name, "CachedBlocks"));
      assertEquals("enabled", server.getAttribute(name, "tag.State"));
      LocatedBlock block = cluster.blocks(file).get(0);
      assertTrue(cluster.isCached(block));
    }
  }

  private static Object attribute(MBeanServer server, ObjectName name, String attribute) {
    try {
      return server.getAttribute(name, attribute);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }
}
