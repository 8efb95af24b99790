package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;

import org.junit.jupiter.api.Test;

class TestHarnessOptions {
  private static final long MB = 1 << 20;

  private static HarnessOptions options(double memoryShare) {
    return new HarnessOptions(3, 8 * MB, 24, 6, 1.0, 4, 8 * MB, List.of(1L),
        List.of(ClusterSetup.STOCK, ClusterSetup.MEMORY), null, null, 0.5, memoryShare, 0.5,
        new File("work"), null, 2, true, List.of(), true, null);
  }

  @Test
  void ssdCacheIsTheShareOfTheWorkingSetSpreadOverTheNodes() {
    assertEquals(50 * MB, options(0.15).ssdBytesPerNode(300 * MB));
  }

  @Test
  void memoryCacheIsRoundedUpToWholeBlocks() {
    // 15 % of 50 MB is 7.5 MB, less than one 8 MB block: Hadoop could cache nothing of it.
    assertEquals(8 * MB, options(0.15).memoryBytesPerNode(300 * MB));
    // 40 % of 50 MB is 20 MB: two blocks and a half, so three.
    assertEquals(24 * MB, options(0.4).memoryBytesPerNode(300 * MB));
  }

  @Test
  void memoryCacheHoldsAtLeastOneBlock() {
    assertEquals(8 * MB, options(0).memoryBytesPerNode(300 * MB));
  }

  @Test
  void seedsAndConfigurationsAreTakenOnceInTheirOrder() {
    HarnessOptions options = parse(
        new String[] {"--seeds", "3, 1,3", "--configs", "mpcache,stock,mpcache"});
    assertEquals(List.of(3L, 1L), options.seeds());
    assertEquals(List.of(ClusterSetup.MPCACHE, ClusterSetup.STOCK), options.setups());
  }

  @Test
  void anExistingClusterHasItsOwnDevicesAndAnHdfsFolder() {
    HarnessOptions options = parse(
        new String[] {"--cluster", "existing", "--configs", "mpcache"});
    assertTrue(options.existingCluster());
    assertEquals("mpcache-bench", options.existingClusterDir());
    assertFalse(options.emulated());
    assertEquals("/bench", parse(new String[] {"--cluster", "existing",
        "--hdfs-dir", "/bench"}).existingClusterDir());
    assertNull(parse(new String[0]).existingClusterDir());
  }

  @Test
  void anUnknownClusterKindIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse(new String[] {"--cluster", "remote"}));
    assertTrue(e.getMessage().contains("remote"), e.getMessage());
  }

  @Test
  void theUsageListsEveryOptionAndAnUnknownOneIsRefused() {
    String usage = BenchmarkHarness.OPTIONS.usage();
    for (String option : List.of("configs", "seeds", "jobs", "history", "s", "max-k", "base-mb",
        "block-mb", "nodes", "containers", "hdd", "ssd", "real-devices", "ssd-share",
        "memory-share", "pool-share", "benchmarks", "uncompressed-map-output", "no-check", "plan",
        "report-dir", "merge", "work-dir", "ssd-dir", "cluster", "hdfs-dir", "help")) {
      assertTrue(usage.contains("--" + option + " "), option);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse(new String[] {"--seed", "3"}));
    assertTrue(e.getMessage().contains("--seed"), e.getMessage());
  }

  /**
   * A pool share other than the product's is a setting streams must share to be paired; folders
   * run at the product's name none, so they still pair with new runs at it.
   */
  @Test
  void aPoolShareOtherThanTheProductsIsASettingAndOneTooLargeIsRefused() {
    assertFalse(new BenchmarkHarness(parse(new String[0])).settings().containsKey("pool-share"));
    assertEquals("0.8", new BenchmarkHarness(parse(new String[] {"--pool-share", "0.8"}))
        .settings().get("pool-share"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse(new String[] {"--pool-share", "0.95"}));
    assertTrue(e.getMessage().contains("--pool-share 0.95"), e.getMessage());
  }

  private static HarnessOptions parse(String[] args) {
    return BenchmarkHarness.options(BenchmarkHarness.OPTIONS.parse(args));
  }
}
