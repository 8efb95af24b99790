package org.mpcache.slave.inputcache.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.inputcache.BlockKey;

/**
 * The layout version of an SSD dir (mpcache/VERSION): this release's layout is taken in; any
 * other, or a layout without the file, is discarded at start-up, never served. The dir's id
 * there, and the note of a clean stop (mpcache/CLEAN).
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
    CachedCopy copy = leaveACopyIn(store);
    store.close(10_000, any -> false);
    return copy;
  }

  private static CachedCopy leaveACopyIn(SsdStore store) throws Exception {
    FillFiles files = store.createFill(store.dirs().get(0), new BlockKey(POOL, 1), 7);
    files.dataOut().write(new byte[100]);
    files.metaOut().write(new byte[11]);
    files.syncAndClose();
    return store.commit(files, new BlockKey(POOL, 1), 7, 100, 11, 0);
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
      store.close(10_000, any -> false);
    }
  }

  @Test
  void aNewDirIsMarkedWithThisReleasesLayout() throws Exception {
    open().close(10_000, any -> false);
    assertTrue(Files.readString(versionFile())
        .contains("layoutVersion=" + SsdStore.LAYOUT_VERSION));
  }

  /**
   * The dir's id in VERSION is the one taken back after a failure: a bare mount point (or
   * another device) in its place is not admitted.
   */
  @Test
  void aDirComesBackOnlyWithTheLayoutItWasAdmittedWith() throws Exception {
    SsdStore store = open();
    try {
      CacheDir dir = store.dirs().get(0);
      assertTrue(Files.readString(versionFile()).contains("dirId=" + dir.identity()));
      store.admit(dir); // the same layout: back
      FileUtil.fullyDelete(ssd.toPath().resolve(SsdStore.LAYOUT_DIR).toFile());
      IOException refused = assertThrows(IOException.class, () -> store.admit(dir));
      assertTrue(refused.getMessage().contains("its cache layout is gone"), refused.getMessage());
      assertFalse(Files.exists(versionFile()), "no layout made on the mount point");
    } finally {
      store.close(10_000, any -> false);
    }
  }

  /** A clean stop is noted in the dir; the next start takes the note away. */
  @Test
  void aCleanStopIsNotedUntilTheNextStart() throws Exception {
    Path clean = ssd.toPath().resolve(SsdStore.LAYOUT_DIR).resolve(SsdStore.CLEAN_STOP_FILE);
    SsdStore first = open();
    assertFalse(first.dirs().get(0).stoppedCleanly(), "a new dir");
    first.close(10_000, any -> false);
    assertTrue(Files.exists(clean));
    SsdStore second = open();
    assertTrue(second.dirs().get(0).stoppedCleanly());
    assertFalse(Files.exists(clean), "a crash from now on is no clean stop");
    second.dirs().forEach(dir -> dir.lane().shutdown()); // a crash: no close
    SsdStore third = open();
    assertFalse(third.dirs().get(0).stoppedCleanly());

    // Copies a crash left are trusted again only once their block pool was taken in (verified).
    leaveACopyIn(third);
    third.close(10_000, any -> false);
    assertFalse(Files.exists(clean), "block pool " + POOL + " not taken in since the crash");
    SsdStore fourth = open();
    fourth.dirs().get(0).poolVerified(POOL);
    fourth.close(10_000, any -> true);
    assertFalse(Files.exists(clean), "deletions under way");
    SsdStore fifth = open();
    fifth.dirs().get(0).poolVerified(POOL);
    fifth.close(10_000, any -> false);
    assertTrue(Files.exists(clean));
  }

  @Test
  void copiesOfThisLayoutAreTakenIn() throws Exception {
    leaveACopy();
    assertEquals(1, takenIn().size());
  }

  @Test
  void aLayoutWithoutItsVersionFileIsDiscardedNeverTakenIn() throws Exception {
    CachedCopy copy = leaveACopy();
    Files.delete(versionFile());
    assertEquals(List.of(), takenIn());
    assertFalse(Files.exists(copy.dataFile()), "the copy's files are gone");
    assertTrue(Files.readString(versionFile()).contains(
        "layoutVersion=" + SsdStore.LAYOUT_VERSION), "this release's layout from now on");
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
