package org.mpcache.slave.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.BlockKey;

/**
 * The layout version of an SSD dir (mpcache/VERSION): this release's layout, and the one made
 * before the file existed, are taken in; any other is discarded at start-up, never served.
 */
@Timeout(60)
class TestSsdStoreLayout {
  private static final String POOL = "BP-1";
  private File ssd;

  @BeforeEach
  void makeDir() throws Exception {
    ssd = GenericTestUtils.getTestDir("layout-" + System.nanoTime());
    Files.createDirectories(ssd.toPath());
  }

  private SsdStore open() {
    return SsdStore.open(List.of(ssd), 10_000, new FileIoProvider(null, null),
        PosixFilePermissions.fromString("rwx------"), 10_000);
  }

  /** Opens the dir, leaves one committed copy in it and closes it: a DataNode that stopped. */
  private CachedCopy leaveACopy() throws Exception {
    SsdStore store = open();
    CacheDir dir = store.dirs().get(0);
    FillFiles files = store.createFill(dir, new BlockKey(POOL, 1), 7);
    files.dataOut().write(new byte[100]);
    files.metaOut().write(new byte[11]);
    files.dataOut().close();
    files.metaOut().close();
    CachedCopy copy = store.commit(files, new BlockKey(POOL, 1), 7, 100, 11, 0);
    store.close();
    return copy;
  }

  private Path versionFile() {
    return ssd.toPath().resolve(SsdStore.LAYOUT_DIR).resolve(SsdStore.VERSION_FILE);
  }

  private List<CachedCopy> takenIn() throws Exception {
    SsdStore store = open();
    try {
      CacheDir dir = store.dirs().get(0);
      assertTrue(dir.healthy(), "the dir is in use: " + dir.failure());
      return store.scan(dir, POOL);
    } finally {
      store.close();
    }
  }

  @Test
  void aNewDirIsMarkedWithThisReleasesLayout() throws Exception {
    open().close();
    assertTrue(Files.readString(versionFile())
        .contains("layoutVersion=" + SsdStore.LAYOUT_VERSION));
  }

  @Test
  void copiesOfThisLayoutAreTakenIn() throws Exception {
    leaveACopy();
    assertEquals(1, takenIn().size());
  }

  @Test
  void aDirMadeBeforeTheVersionFileHasThisLayoutAndIsKept() throws Exception {
    leaveACopy();
    Files.delete(versionFile());
    assertEquals(1, takenIn().size());
    assertTrue(Files.exists(versionFile()), "marked on the way");
  }

  @Test
  void copiesOfAnotherLayoutAreDiscardedNeverTakenIn() throws Exception {
    for (String other : new String[] {"layoutVersion=2\n", "layoutVersion=0\n", "garbage\n",
        "layoutVersion=\\uZZZZ\n"}) {
      CachedCopy copy = leaveACopy();
      Files.writeString(versionFile(), other, StandardCharsets.ISO_8859_1);
      assertEquals(List.of(), takenIn(), other);
      assertFalse(Files.exists(copy.dataFile()), other + ": the copy's files are gone");
      assertFalse(Files.exists(copy.metaFile()), other);
      assertTrue(Files.readString(versionFile()).contains(
          "layoutVersion=" + SsdStore.LAYOUT_VERSION), other);
    }
  }
}
