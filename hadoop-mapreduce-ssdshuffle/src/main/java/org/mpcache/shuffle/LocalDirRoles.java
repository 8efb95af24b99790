package org.mpcache.shuffle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.mpcache.protocol.LocalizedSpaceProtocol;

/**
 * A task's local dirs (its application's dir on each NodeManager local dir, as YarnChild lists
 * them in {@code mapreduce.cluster.local.dir}) split by device: a dir under a NodeManager local
 * dir that holds the cache slave's address file ({@link LocalizedSpaceProtocol#ADDRESS_FILE}) is
 * on the SSD, and the file says where that slave listens.
 *
 * @param ssd application dirs on the SSD
 * @param hdd the other application dirs
 * @param slaveAddress "host:port" of the slave owning the SSD dirs, or null when there are none
 */
public record LocalDirRoles(List<String> ssd, List<String> hdd, String slaveAddress) {
  /** Levels from an application dir up to its NodeManager local dir: usercache/u/appcache/app. */
  private static final int APP_DIR_DEPTH = 4;

  public LocalDirRoles {
    ssd = List.copyOf(ssd);
    hdd = List.copyOf(hdd);
  }

  public static LocalDirRoles of(String[] localDirs) {
    List<String> ssd = new ArrayList<>();
    List<String> hdd = new ArrayList<>();
    String address = null;
    for (String dir : localDirs) {
      String found = slaveAddress(Paths.get(dir));
      if (found != null && (address == null || address.equals(found))) {
        address = found;
        ssd.add(dir);
      } else {
        hdd.add(dir);
      }
    }
    return new LocalDirRoles(ssd, hdd, address);
  }

  /** The address in the slave's file at or above {@code dir}, or null. */
  private static String slaveAddress(Path dir) {
    Path candidate = dir.toAbsolutePath();
    for (int up = 0; up <= APP_DIR_DEPTH && candidate != null; up++) {
      if (Files.isRegularFile(candidate.resolve(LocalizedSpaceProtocol.ADDRESS_FILE))) {
        return addressIn(candidate);
      }
      candidate = candidate.getParent();
    }
    return null;
  }

  /**
   * The address in the slave's file in {@code dir} itself, or null: no file, an empty one, or
   * one being rewritten right now or unreadable (its dir is then used as an HDD dir).
   */
  static String addressIn(Path dir) {
    try {
      String address = Files.readString(dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE),
          StandardCharsets.UTF_8).trim();
      return address.isEmpty() ? null : address;
    } catch (IOException e) {
      return null;
    }
  }
}
