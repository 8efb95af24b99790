package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.bench.harness.TestResultsFolder.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestMergedSittings {
  private static final Map<String, String> SETTINGS = Map.of("nodes", "3", "jobs", "30");

  private static ResultsFolder folder(Path dir, String name) throws Exception {
    ResultsFolder folder = new ResultsFolder(dir.resolve(name).toFile());
    folder.claim(SETTINGS);
    return folder;
  }

  /**
   * Sitting a ran stock and mpCache on seeds 1 and 2, sitting b stock, memory and mpCache on seed
   * 1, sitting c stock alone: mpCache's seed 1 counts from a, named first, and stock where
   * something of its sitting pairs with it.
   */
  @Test
  void eachStreamCountsOnceAndEachBaselineWhereItIsAReference(@TempDir Path dir)
      throws Exception {
    ResultsFolder a = folder(dir, "a");
    for (long seed = 1; seed <= 2; seed++) {
      a.save(seed, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, seed, 0)));
      a.save(seed, ClusterSetup.MPCACHE, List.of(job(ClusterSetup.MPCACHE, seed, 0)));
    }
    ResultsFolder b = folder(dir, "b");
    b.save(1, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, 1, 0)));
    b.save(1, ClusterSetup.MEMORY, List.of(job(ClusterSetup.MEMORY, 1, 0)));
    b.save(1, ClusterSetup.MPCACHE, List.of(job(ClusterSetup.MPCACHE, 1, 0)));
    ResultsFolder c = folder(dir, "c");
    c.save(1, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, 1, 0)));

    List<JobResult> merged = MergedSittings.of(List.of(a.dir(), b.dir(), c.dir()), SETTINGS,
        ClusterSetup.STOCK);
    assertEquals(List.of(job(ClusterSetup.STOCK, 1, 0).inSitting("a"),
        job(ClusterSetup.STOCK, 2, 0).inSitting("a"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("b"),
        job(ClusterSetup.MPCACHE, 1, 0).inSitting("a"),
        job(ClusterSetup.MPCACHE, 2, 0).inSitting("a"),
        job(ClusterSetup.MEMORY, 1, 0).inSitting("b")).toString(), merged.toString());
  }

  @Test
  void foldersOfOtherSettingsOrOneNameOrNoResultsAreRefused(@TempDir Path dir)
      throws Exception {
    ResultsFolder a = folder(dir, "a");
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(List.of(a.dir()), Map.of("nodes", "4", "jobs", "30"),
            ClusterSetup.STOCK));
    assertTrue(other.getMessage().contains("nodes 3 there, 4 here"), other.getMessage());
    ResultsFolder twin = folder(dir.resolve("later"), "a");
    IllegalArgumentException sameName = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(List.of(a.dir(), twin.dir()), SETTINGS, ClusterSetup.STOCK));
    assertTrue(sameName.getMessage().contains("called a"), sameName.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(List.of(dir.resolve("nothing").toFile()), SETTINGS,
            ClusterSetup.STOCK));
    assertTrue(none.getMessage().contains("no results folder"), none.getMessage());
  }
}
