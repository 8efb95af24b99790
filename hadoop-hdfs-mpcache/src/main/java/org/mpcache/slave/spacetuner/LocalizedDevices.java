package org.mpcache.slave.spacetuner;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One measurement of the devices the localized dirs are on: what they may still take before
 * they are fuller than they must stay (usable bytes, less a tenth of each device: the
 * NodeManager takes a local dir over 90 % full for a bad disk), and which of the input cache's
 * dirs share them (input data the pool evicts for localized data frees room there).
 */
record LocalizedDevices(long roomBytes, List<File> sharedCacheDirs) {
  /** The share of each device kept free. */
  static final double KEPT_FREE = 0.1;

  static LocalizedDevices measure(List<Path> localizedDirs, List<File> cacheDirs)
      throws IOException {
    Set<FileStore> devices = new LinkedHashSet<>();
    for (Path dir : localizedDirs) {
      devices.add(Files.getFileStore(dir));
    }
    long room = 0;
    for (FileStore device : devices) {
      room += Math.max(0, device.getUsableSpace() - (long) (KEPT_FREE * device.getTotalSpace()));
    }
    List<File> shared = new ArrayList<>();
    for (File cacheDir : cacheDirs) {
      if (cacheDir.isDirectory() && devices.contains(Files.getFileStore(cacheDir.toPath()))) {
        shared.add(cacheDir);
      }
    }
    return new LocalizedDevices(room, List.copyOf(shared));
  }
}
