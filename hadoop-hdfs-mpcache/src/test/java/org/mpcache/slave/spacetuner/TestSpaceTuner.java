package org.mpcache.slave.spacetuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDataset;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol.Reservation;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.slave.inputcache.CacheCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.slave.inputcache.SsdInputCache;
import org.mpcache.slave.inputcache.SlaveTestUtils;
import org.mpcache.tools.FreePorts;

/**
 * The Dynamic Space Tuner in a DataNode, asked for room over its loopback RPC as a task JVM asks.
 * The SSD cache holds 10 units of one 256 KB block: 4 input, 4 pool, 2 localized.
 */
@Timeout(180)
public class TestSpaceTuner {
  private static final int BLOCK = CacheTestCluster.BLOCK_SIZE;
  private static final String MAP = "attempt_1_0001_m_000000_0";
  private static final String REDUCE = "attempt_1_0001_r_000000_0";

  private CacheTestCluster cluster;
  private File localized;
  private String address;
  private LocalizedSpaceClientSideTranslatorPB client;

  public static Configuration conf() {
    Configuration conf = CacheTestCluster.conf();
    conf.set(DFS_MPCACHE_CAPACITY_KEY, Integer.toString(10 * BLOCK));
    conf.set(DFS_MPCACHE_POOL_SHARE_KEY, "0.4");
    conf.set(DFS_MPCACHE_LOCALIZED_SHARE_KEY, "0.2");
    conf.set(DFS_MPCACHE_LOCALIZED_SCAN_KEY, "100ms");
    // Units of one block, as the paper's: by default a cache of 10 blocks has finer ones.
    conf.set(DFS_MPCACHE_POOL_UNIT_KEY, Integer.toString(BLOCK));
    // One attempt may take all localized data may hold here; the limits: TestChannelCallers.
    conf.set(DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_KEY, "1");
    conf.set(DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_KEY, "1");
    return conf;
  }

  /** One DataNode whose tuner keeps localized data in {@code <test dir>/localized}. */
  private void start(Configuration conf) throws IOException {
    start(conf, dir -> { });
  }

  /** As {@link #start(Configuration)}, {@code before} seeing the localized dir first. */
  private void start(Configuration conf, Consumer<File> before) throws IOException {
    cluster = CacheTestCluster.start("tuner", conf, 1, setup -> {
      localized = new File(setup.ssdDir().getParentFile(), "localized");
      before.accept(localized);
      setup.overlay().set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, localized.getAbsolutePath());
    });
    if (tuner() == null) {
      return;
    }
    address = Files.readString(
        new File(localized, LocalizedSpaceProtocol.ADDRESS_FILE).toPath()).trim();
    client = LocalizedSpaceClientSideTranslatorPB.connect(conf,
        NetUtils.createSocketAddr(address), 10_000);
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private SpaceTuner tuner() {
    return ((MpCacheFsDataset) cluster.mini().getDataNodes().get(0).getFSDataset())
        .getSpaceTuner();
  }

  private SsdInputCache cache() {
    return cluster.ssdCache(0);
  }

  /** A file under the localized dir as a task attempt writes it (YARN's app dir layout). */
  private Path intermediateFile(String attempt, int bytes) throws IOException {
    Path file = localized.toPath().resolve("usercache/u/appcache/application_1_0001/output")
        .resolve(attempt).resolve("file.out");
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[bytes]);
    return file;
  }

  @Test
  void localizedDemandTakesPoolUnitsFromInputDataAndGivesThemBackUnderTheGuard()
      throws Exception {
    start(conf());
    assertEquals(2L * BLOCK, tuner().localizedCapacityBytes());
    assertEquals(8L * BLOCK, cache().capacityBytes(), "input data may fill the pool");
    cluster.writeCached(new org.apache.hadoop.fs.Path("/input/part-0"), 7 * BLOCK, 1);
    long copies = cache().usedBytes();
    assertTrue(copies > 7L * BLOCK, "seven copies with their checksums: " + copies);

    assertTrue(client.reserve(MAP, BLOCK).granted(), "fits the Localized Cache");
    assertEquals(0, tuner().lentUnits());

    // Two more units: one pool unit, whose input data must go first (this slave: LRU, now).
    Reservation more = client.reserve(MAP, 2 * BLOCK);
    assertTrue(more.granted());
    assertEquals(1, tuner().lentUnits());
    assertEquals(7L * BLOCK, cache().capacityBytes());
    assertEquals(1, cache().counter(CacheCounter.EVICTIONS));
    assertTrue(cache().usedBytes() <= cache().capacityBytes());
    assertEquals(3L * BLOCK, tuner().localizedBytes());

    // The map ends having written 100 KB: under the guard, the pool unit returns.
    Path output = intermediateFile(MAP, 100_000);
    client.finish(MAP);
    GenericTestUtils.waitFor(() -> tuner().localizedBytes() == 100_000
        && tuner().lentUnits() == 0, 20, 10_000, "the pool unit back with input data");
    assertEquals(8L * BLOCK, cache().capacityBytes());

    // YARN deletes the application's dirs: nothing is left accounted.
    Files.delete(output);
    GenericTestUtils.waitFor(() -> tuner().localizedBytes() == 0, 20, 10_000,
        "no localized data left");
    assertEquals(0, cache().usage().localizedBytes());
  }

  /**
   * Hadoop asks for a spill's uncompressed size and writes it compressed: once a map has shown
   * what share of its request it wrote, later requests are charged that share, so one that would
   * not fit at its full size is granted.
   */
  @Test
  void requestsAreChargedTheShareEndedMapsWrote() throws Exception {
    start(conf());
    assertTrue(client.reserve(MAP, 4L * BLOCK).granted());
    intermediateFile(MAP, BLOCK); // compressed to a quarter
    client.finish(MAP);
    GenericTestUtils.waitFor(() -> tuner().writtenShare() == 0.25, 20, 10_000,
        "the share learned at the scan after the map ended");

    String second = "attempt_1_0001_m_000001_0";
    assertTrue(client.reserve(second, 8L * BLOCK).granted(), "charged 2 of the 6 units");
    assertEquals(3L * BLOCK, tuner().localizedBytes(), "the first map's file, the second's charge");
    assertEquals(8L * BLOCK, tuner().grantedBytes() - 4L * BLOCK, "granted as asked for");
    assertTrue(client.reserve(REDUCE, 12L * BLOCK).granted(), "charged the 3 units left");
  }

  /**
   * A grant is a promise that the file fits the SSD: one the device could not hold would have the
   * task's spill fail half-written (suspected in issue 49, confirmed here: with a cache sized
   * larger than its device, the pool alone granted more than the device had free). A grant
   * leaves the device a tenth of its size free, less what earlier grants may still write.
   */
  @Test
  void aGrantNeverExceedsWhatTheLocalizedDirsDeviceHasFree() throws Exception {
    Configuration conf = conf();
    FileStore device = Files.getFileStore(GenericTestUtils.getTestDir().toPath());
    conf.setLong(DFS_MPCACHE_CAPACITY_KEY, 4 * device.getTotalSpace()); // an operator's mistake
    conf.unset(DFS_MPCACHE_POOL_UNIT_KEY);
    start(conf);
    long free = device.getUsableSpace() - device.getTotalSpace() / 10;
    assertTrue(tuner().localizedCapacityBytes() > free + (1L << 30), "the pool alone would");
    assertFalse(client.reserve(MAP, free + (1L << 30)).granted(), "beyond the device");
    long gigabyte = 1L << 30;
    assertTrue(client.reserve(MAP, gigabyte).granted(), "what fits the device");
    assertFalse(client.reserve(REDUCE, free - gigabyte / 2).granted(),
        "the first grant may still be written");
  }

  @Test
  void aCacheOfFewerThan64BlocksIsSplitIn64UnitsByDefault() throws Exception {
    Configuration conf = conf();
    conf.unset(DFS_MPCACHE_POOL_UNIT_KEY);
    start(conf);
    long unit = 10L * BLOCK / 64;
    assertEquals(12 * unit, tuner().localizedCapacityBytes(), "0.2 of 64 units its own");
    assertEquals((64 - 12) * unit, cache().capacityBytes(), "input data may fill the pool");
    assertTrue(client.reserve(MAP, 12 * unit + 1).granted(), "one pool unit lent");
    assertEquals(1, tuner().lentUnits());
  }

  @Test
  void moreThanThePoolCanHoldIsRefusedAndInputDataKeepsItsCopies() throws Exception {
    start(conf());
    cluster.writeCached(new org.apache.hadoop.fs.Path("/input/part-0"), 4 * BLOCK, 1);
    assertFalse(client.reserve(REDUCE, 6L * BLOCK + 1).granted(), "6 units at most");
    assertEquals(0, tuner().lentUnits());
    assertEquals(0, cache().counter(CacheCounter.EVICTIONS));
    assertEquals(6L * BLOCK + 1, tuner().refusedBytes());
  }

  @Test
  void reservationsNoSlaveCouldAccountAreRefusedWithTheirCause() throws Exception {
    start(conf());
    assertFalse(client.reserve(REDUCE, Long.MAX_VALUE).granted());
    assertFalse(client.reserve(REDUCE, Long.MAX_VALUE).granted());
    assertEquals(0, tuner().localizedBytes(), "the refused reservations left no trace");
    assertEquals(Long.MAX_VALUE, tuner().refusedBytes(), "the refused-bytes metric saturates");
    // A uint64 beyond Long.MAX_VALUE, as a forger may send it.
    IOException tooLarge = assertThrows(IOException.class, () -> client.reserve(REDUCE, -2));
    assertTrue(tooLarge.getMessage().contains("asked for 18446744073709551614 bytes"),
        tooLarge.getMessage());
    IOException notAnAttempt =
        assertThrows(IOException.class, () -> client.reserve("someone-else", BLOCK));
    assertTrue(notAnAttempt.getMessage().contains("\"someone-else\" is not a task attempt id"),
        notAnAttempt.getMessage());
    assertThrows(IOException.class, () -> client.finish("attempt_1_0001_m_000000_0/../x"));
    assertThrows(IOException.class,
        () -> client.reserve("attempt_1_0001_m_" + "0".repeat(90) + "_0", 1), "over 100 chars");
    assertEquals(0, tuner().liveAttempts());
    // The slave goes on granting what fits.
    assertTrue(client.reserve(REDUCE, 2L * BLOCK).granted());
    assertEquals(2L * BLOCK, tuner().localizedBytes());
  }

  @Test
  void aSilentAttemptsGrantsLapse() throws Exception {
    Configuration conf = conf();
    conf.set(DFS_MPCACHE_LOCALIZED_LEASE_KEY, "300ms");
    start(conf);
    assertTrue(client.reserve(MAP, 3L * BLOCK).granted());
    assertEquals(1, tuner().lentUnits());
    // The attempt was killed: it renews no more.
    GenericTestUtils.waitFor(() -> tuner().liveAttempts() == 0 && tuner().localizedBytes() == 0
        && tuner().lentUnits() == 0, 20, 10_000, "the grant to lapse");
    assertFalse(client.renew(MAP));
  }

  /** The default policy and the paper's alike take the room from the lowest data set. */
  @ParameterizedTest
  @ValueSource(strings = {"wholeset", "mpcache"})
  void withAMasterTheEvictionGoesThroughItsPolicy(String policy) throws Exception {
    Configuration conf = conf();
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, MASTER_PLUGIN_CLASS);
    conf.set(DFS_MPCACHE_MASTER_POLICY_KEY, policy);
    conf.set(DFS_MPCACHE_MASTER_ADDRESS_KEY, "127.0.0.1:" + FreePorts.outsideEphemeralRange());
    conf.set(DFS_MPCACHE_HEARTBEAT_KEY, "1h"); // only the heartbeat the request hastens
    conf.set(DFS_MPCACHE_LOCALIZED_EVICTION_WAIT_KEY, "20s");
    start(conf);
    GenericTestUtils.waitFor(() -> {
      SlaveTestUtils.heartbeat(cache());
      return cache().arbiterState().startsWith("master");
    }, 50, 30_000, "the slave registered with the master");
    org.apache.hadoop.fs.Path small = new org.apache.hadoop.fs.Path("/small/part-0");
    org.apache.hadoop.fs.Path large = new org.apache.hadoop.fs.Path("/large/part-0");
    cluster.writeCached(small, 2 * BLOCK, 1);
    cluster.writeCached(large, 5 * BLOCK, 2);
    cluster.read(large);
    cluster.read(large); // /large is read three times: /small has the lower rate per block
    SlaveTestUtils.heartbeat(cache());

    // Two pool units: the master's capacity for the node falls from 8 blocks to 6, under the 7
    // blocks and their checksums it holds: two blocks go, from the lowest data set, on one
    // hastened heartbeat.
    long heartbeats = cache().masterHeartbeats();
    assertTrue(client.reserve(MAP, 4L * BLOCK).granted());
    assertEquals(heartbeats + 1, cache().masterHeartbeats(), "the master is asked once");
    assertEquals(6L * BLOCK, cache().capacityBytes());
    assertEquals(2, cache().counter(CacheCounter.EVICTIONS));
    cluster.blocks(small).forEach(block -> assertFalse(cluster.isCached(block)));
    cluster.blocks(large).forEach(block -> assertTrue(cluster.isCached(block)));
    assertNotNull(tuner());
  }

  /**
   * The localized dir is a NodeManager local dir, which tasks may write: whatever they plant at
   * the names the slave writes there (a link to a file the DataNode may write, a FIFO) is
   * replaced, never followed or opened, at start-up and whenever the address file goes missing.
   */
  @Test
  void linksAndFifosPlantedWhereTheSlaveWritesAreReplacedNeverFollowedOrOpened()
      throws Exception {
    Path victim = GenericTestUtils.getTestDir("tuner-victim-" + System.nanoTime()).toPath();
    Files.createDirectories(victim.getParent());
    Files.writeString(victim, "a replica the DataNode may write");
    List<String> names = List.of(LocalizedSpaceProtocol.ADDRESS_FILE + ".tmp",
        LocalizedSpaceProtocol.ADDRESS_FILE);
    // Planted before the DataNode starts: it starts (a liveness check, not a timing one), and
    // publishes its address.
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> start(conf(), dir -> {
      try {
        Files.createDirectories(dir.toPath());
        mkfifo(dir.toPath().resolve(names.get(0)));
        Files.createSymbolicLink(dir.toPath().resolve(names.get(1)), victim);
      } catch (IOException | InterruptedException e) {
        throw new AssertionError(e);
      }
    }), "the DataNode did not start");
    awaitAddressPublished();
    for (String name : names) {
      for (boolean fifo : new boolean[] {false, true}) {
        Path published = localized.toPath().resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
        Path planted = localized.toPath().resolve(name);
        Files.deleteIfExists(published);
        Files.deleteIfExists(planted);
        if (fifo) {
          mkfifo(planted);
        } else {
          Files.createSymbolicLink(planted, victim);
        }
        awaitAddressPublished();
        assertEquals("a replica the DataNode may write", Files.readString(victim),
            (fifo ? "FIFO" : "link") + " at " + name);
      }
    }
    assertTrue(client.reserve(MAP, BLOCK).granted(), "the channel still serves");
  }

  /** The slave's address file is back in the localized dir: a regular file, its own address. */
  private void awaitAddressPublished() throws Exception {
    Path published = localized.toPath().resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
    GenericTestUtils.waitFor(() -> {
      try {
        return Files.isRegularFile(published, LinkOption.NOFOLLOW_LINKS)
            && Files.readString(published).trim().equals(address);
      } catch (IOException e) {
        return false;
      }
    }, 20, 30_000, "the slave's address file rewritten");
  }

  private static void mkfifo(Path path) throws IOException, InterruptedException {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo " + path);
  }

  @Test
  void aLocalizedAddressOffLoopbackIsRefusedNamingTheKey() throws Exception {
    Configuration conf = conf();
    conf.set(DFS_MPCACHE_LOCALIZED_ADDRESS_KEY, "0.0.0.0:0");
    start(conf, dir -> { });
    assertNull(tuner(), "no channel beyond this node's task JVMs");
    assertTrue(cache().enabled(), "the input cache serves on");
  }

  @Test
  void anUnusableLocalizedDirLeavesTheInputCacheServing() throws Exception {
    Configuration conf = conf();
    cluster = CacheTestCluster.start("tuner-bad", conf, 1, setup -> {
      File notADir = new File(setup.ssdDir().getParentFile(), "a-file");
      try {
        Files.writeString(notADir.toPath(), "x");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      setup.overlay().set(DFS_MPCACHE_LOCALIZED_DIRS_KEY, notADir.getAbsolutePath());
    });
    assertNull(tuner());
    assertTrue(cache().enabled());
    assertEquals(10L * BLOCK, cache().capacityBytes(), "input data has the whole cache");
    cluster.writeCached(new org.apache.hadoop.fs.Path("/input/part-0"), BLOCK, 1);
  }
}
