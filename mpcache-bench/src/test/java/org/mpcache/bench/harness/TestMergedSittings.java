package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.bench.harness.TestResultsFolder.job;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.bench.harness.MergedSittings.Folder;
import org.mpcache.bench.harness.MergedSittings.Merge;

class TestMergedSittings {
  private static final Map<String, String> SETTINGS = Map.of("nodes", "3", "jobs", "30");

  private static ResultsFolder folder(Path dir, String name) throws Exception {
    ResultsFolder folder = new ResultsFolder(dir.resolve(name).toFile());
    folder.claim(SETTINGS);
    return folder;
  }

  /** Folders whose streams are all taken. */
  private static List<Folder> whole(File... dirs) {
    return Arrays.stream(dirs).map(dir -> new Folder(dir, Set.of())).toList();
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

    Merge merge = MergedSittings.of(whole(a.dir(), b.dir(), c.dir()), SETTINGS,
        ClusterSetup.STOCK);
    // each folder's streams in the order of their files' names
    assertEquals(List.of(job(ClusterSetup.MPCACHE, 1, 0).inSitting("a"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("a"),
        job(ClusterSetup.MPCACHE, 2, 0).inSitting("a"),
        job(ClusterSetup.STOCK, 2, 0).inSitting("a"),
        job(ClusterSetup.MEMORY, 1, 0).inSitting("b"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("b")).toString(), merge.jobs().toString());
    assertEquals(List.of("mpcache seed 1 of b (a's counts)",
        "stock seed 1 of c (nothing of that sitting pairs with it)"), merge.leftOut());
  }

  /** A stream counts from a sitting where stock ran its seed, though another was named first. */
  @Test
  void aStreamCountsFromASittingWithItsBaseline() {
    List<JobResult> jobs = List.of(job(ClusterSetup.MPCACHE, 1, 0).inSitting("a"),
        job(ClusterSetup.MPCACHE, 1, 0).inSitting("b"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("b"),
        job(ClusterSetup.MPCACHE, 1, 0).inSitting("c"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("c"));
    Merge merge = MergedSittings.countedOnce(jobs, ClusterSetup.STOCK);
    assertEquals(List.of(jobs.get(1), jobs.get(2)), merge.jobs());
    assertEquals(List.of("mpcache seed 1 of a (b's counts)", "mpcache seed 1 of c (b's counts)",
        "stock seed 1 of c (nothing of that sitting pairs with it)"), merge.leftOut());
  }

  /**
   * Sitting a ran stock, mpCache and memory on seed 1 with code since changed under mpCache;
   * sitting b ran mpCache again: taking memory alone from a keeps a's mpCache out though b's
   * seed 1 has no other reference, and a's stock in as memory's.
   */
  @Test
  void aFolderGivesOnlyTheConfigurationsNamedForItAndItsBaseline(@TempDir Path dir)
      throws Exception {
    ResultsFolder a = folder(dir, "a");
    a.save(1, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, 1, 0)));
    a.save(1, ClusterSetup.MPCACHE, List.of(job(ClusterSetup.MPCACHE, 1, 0)));
    a.save(1, ClusterSetup.MEMORY, List.of(job(ClusterSetup.MEMORY, 1, 0)));
    ResultsFolder b = folder(dir, "b");
    b.save(2, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, 2, 0)));
    b.save(2, ClusterSetup.MPCACHE, List.of(job(ClusterSetup.MPCACHE, 2, 0)));

    Merge merge = MergedSittings.of(List.of(Folder.parse(a.dir() + ":memory"),
        Folder.parse(b.dir().getPath())), SETTINGS, ClusterSetup.STOCK);
    assertEquals(List.of(job(ClusterSetup.MEMORY, 1, 0).inSitting("a"),
        job(ClusterSetup.STOCK, 1, 0).inSitting("a"),
        job(ClusterSetup.MPCACHE, 2, 0).inSitting("b"),
        job(ClusterSetup.STOCK, 2, 0).inSitting("b")).toString(), merge.jobs().toString());
    assertEquals(List.of("mpcache seed 1 of a (not named for a)"), merge.leftOut());
  }

  @Test
  void aFolderSpecNamesItsConfigurationsAfterItsLastColon() {
    Folder some = Folder.parse("results/x:memory+all-ssd");
    assertEquals(new File("results/x").getAbsoluteFile(), some.dir());
    assertEquals(EnumSet.of(ClusterSetup.MEMORY, ClusterSetup.ALL_SSD), some.only());
    assertEquals(Set.of(), Folder.parse("results/x").only());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Folder.parse("results/x:memroy"));
    assertTrue(unknown.getMessage().contains("no configuration 'memroy'"),
        unknown.getMessage());
  }

  @Test
  void foldersOfOtherSettingsOrOneNameOrNoResultsAreRefused(@TempDir Path dir)
      throws Exception {
    ResultsFolder a = folder(dir, "a");
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(whole(a.dir()), Map.of("nodes", "4", "jobs", "30"),
            ClusterSetup.STOCK));
    assertTrue(other.getMessage().contains("nodes 3 there, 4 here"), other.getMessage());
    assertTrue(other.getMessage().contains("give --merge the options they were run with"),
        other.getMessage());
    ResultsFolder twin = folder(dir.resolve("later"), "a");
    IllegalArgumentException sameName = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(whole(a.dir(), twin.dir()), SETTINGS, ClusterSetup.STOCK));
    assertTrue(sameName.getMessage().contains("called a"), sameName.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> MergedSittings.of(whole(dir.resolve("nothing").toFile()), SETTINGS,
            ClusterSetup.STOCK));
    assertTrue(none.getMessage().contains("no results folder"), none.getMessage());
  }
}
