package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.protocol.LocalizedSpaceProtocol;

class TestSsdFirstAppDirs {
  /** The context the NodeManager keeps its good local dirs under. */
  private static final String GOOD_DIRS = "yarn.nodemanager.good-local-dirs";

  @TempDir
  Path root;

  @Test
  void theSsdKeepsWhatTheNodeManagersDiskCheckerNeedsPlusAMargin() {
    Configuration conf = new Configuration(false);
    SsdFirstAppDirs dirs = new SsdFirstAppDirs(GOOD_DIRS, conf);
    // Utilisation limit 90 % by default, less 5 points: 15 of 100 bytes kept free.
    assertTrue(dirs.keepsRoom(20, 100, 5));
    assertFalse(dirs.keepsRoom(20, 100, 6));
    assertTrue(dirs.keepsRoom(15, 100, -1), "a dir or a file of unknown size costs nothing");
    conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 1);
    assertFalse(new SsdFirstAppDirs(GOOD_DIRS, conf).keepsRoom(1 << 20, 2 << 20, 1),
        "the NodeManager's minimum free space is kept too");
  }

  @Test
  void applicationFilesGoToTheSsdWhileItHasRoomTheRestAsTheNodeManagerPlacesThem()
      throws IOException {
    Path ssd = Files.createDirectories(root.resolve("ssd"));
    Files.writeString(ssd.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), "127.0.0.1:4321\n");
    Configuration conf = new Configuration(false);
    conf.setStrings(GOOD_DIRS, Files.createDirectories(root.resolve("hdd1")).toString(),
        ssd.toString(), Files.createDirectories(root.resolve("hdd2")).toString());
    LocalDirAllocator nodeManagers = new SsdFirstAppDirs(GOOD_DIRS, conf);

    String app = "usercache/alice/appcache/application_1_0001/";
    assertEquals(Set.of("ssd"), placed(nodeManagers, conf, "./" + app + "filecache", 10),
        "the localizer's paths");
    assertEquals(Set.of("ssd"), placed(nodeManagers, conf,
        app + "container_1_0001_01_000002", LocalDirAllocator.SIZE_UNKNOWN), "work dirs");
    assertTrue(placed(nodeManagers, conf, "./filecache", 10).size() > 1,
        "the public cache outlives the application: placed over every dir");
    assertTrue(placed(nodeManagers, conf, "./usercache/alice/filecache", 10).size() > 1,
        "so does the user's");

    // A limit the SSD (and every dir on this machine) is past: the NodeManager's placement.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 0f);
    assertTrue(placed(new SsdFirstAppDirs(GOOD_DIRS, conf), conf, app + "filecache", 10).size()
        > 1, "a nearly full SSD takes no more");
  }

  /** The local dirs (by name: ssd, hdd1, hdd2) 60 placements of {@code path} went to. */
  private Set<String> placed(LocalDirAllocator allocator, Configuration conf, String path,
      long size) throws IOException {
    Set<String> dirs = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      Path placed = Path.of(allocator.getLocalPathForWrite(path, size, conf, false).toUri()
          .getPath());
      dirs.add(root.relativize(placed).getName(0).toString());
    }
    return dirs;
  }
}
