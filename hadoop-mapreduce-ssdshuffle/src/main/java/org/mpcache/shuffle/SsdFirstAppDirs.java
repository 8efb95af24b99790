package org.mpcache.shuffle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.DiskChecker.DiskErrorException;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's allocator of its local dirs, putting what an application owns there on the
 * SSD: the files it localizes for the application (job.jar, job.xml, the job's distributed-cache
 * files of application visibility) and its containers' work dirs, everything under
 * {@code usercache/<user>/appcache/<app>}, which YARN deletes when the application ends. Stock
 * Hadoop spreads them over every local dir, most of them HDDs. A local dir is the SSD's when it
 * holds the cache slave's address file (as tasks tell their SSD dir, {@link LocalDirRoles}); a
 * file goes there while the SSD's device keeps, after it, more free than the NodeManager's disk
 * checker needs to keep the dir in use (its utilisation limit less {@link #MARGIN_PERCENT}
 * points, and its minimum free space); otherwise, and for everything else (the public and the
 * user's file caches, which outlive an application), the NodeManager's own allocation over its
 * good dirs. The slave counts these files among localized data at its next scan.
 */
final class SsdFirstAppDirs extends LocalDirAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(SsdFirstAppDirs.class);
  /** Points of utilisation kept below the NodeManager's limit, for files written meanwhile. */
  static final int MARGIN_PERCENT = 5;
  /**
   * Paths YARN deletes with the application: usercache/&lt;user&gt;/appcache/&lt;app&gt;/...,
   * as the NodeManager names them (its localizer's begin with "./").
   */
  private static final Pattern APPLICATION_PATH =
      Pattern.compile("(\\./|/)?usercache/[^/]+/appcache/[^/]+/.+");
  /** Internal: the context of the allocator over the SSD dirs among the good ones. */
  private static final String SSD_DIRS = "mpcache.nodemanager.ssd.local.dirs";

  private final String goodDirsKey;
  private final float maxUtilizationPercent;
  private final long minFreeBytes;
  private final LocalDirAllocator ssdDirs = new LocalDirAllocator(SSD_DIRS);
  private final Configuration ssdAllocation = new Configuration(false);
  /** Whether the SSD was last found without room: warned once a spell. */
  private volatile boolean warnedFull;

  /**
   * @param goodDirsKey the key under which the NodeManager keeps its good local dirs in its
   *     configuration, the context of its own allocator
   * @param conf the NodeManager's configuration (its disk checker's limits)
   */
  SsdFirstAppDirs(String goodDirsKey, Configuration conf) {
    super(goodDirsKey);
    this.goodDirsKey = goodDirsKey;
    this.maxUtilizationPercent = conf.getFloat(
        YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE,
        YarnConfiguration.DEFAULT_NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE);
    this.minFreeBytes = conf.getLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB,
        YarnConfiguration.DEFAULT_NM_MIN_PER_DISK_FREE_SPACE_MB) << 20;
  }

  @Override
  public Path getLocalPathForWrite(String path, long size, Configuration conf,
      boolean checkWrite) throws IOException {
    if (APPLICATION_PATH.matcher(path).matches()) {
      List<String> ssd = ssdDirsWithRoom(conf.getTrimmedStrings(goodDirsKey), size);
      if (!ssd.isEmpty()) {
        try {
          return onSsd(path, size, ssd, checkWrite);
        } catch (DiskErrorException e) {
          LOG.debug("mpCache: {} not placed on the SSD dirs {}: {}", path, ssd, e.toString());
        }
      }
    }
    return super.getLocalPathForWrite(path, size, conf, checkWrite);
  }

  private synchronized Path onSsd(String path, long size, List<String> ssd, boolean checkWrite)
      throws IOException {
    // The allocator reads its dirs again whenever the key's value changes.
    ssdAllocation.setStrings(SSD_DIRS, ssd.toArray(new String[0]));
    return ssdDirs.getLocalPathForWrite(path, size, ssdAllocation, checkWrite);
  }

  /** The good dirs that are the SSD's and keep room enough after {@code size} more bytes. */
  private List<String> ssdDirsWithRoom(String[] goodDirs, long size) {
    List<String> ssd = new ArrayList<>();
    for (String dir : goodDirs) {
      if (!LocalDirRoles.holdsAddressFile(Paths.get(dir))) {
        continue;
      }
      File device = new File(dir);
      if (keepsRoom(device.getUsableSpace(), device.getTotalSpace(), size)) {
        ssd.add(dir);
        warnedFull = false;
      } else if (!warnedFull) {
        warnedFull = true;
        LOG.warn("mpCache: the SSD local dir {} is nearly full ({} of {} bytes usable); the "
            + "NodeManager places applications' files on its other local dirs until it has "
            + "room", dir, device.getUsableSpace(), device.getTotalSpace());
      }
    }
    return ssd;
  }

  /**
   * Whether a device with {@code usable} of {@code total} bytes free keeps room enough after a
   * file of {@code size} bytes (unknown when negative: a dir, or a file whose size is not told).
   */
  boolean keepsRoom(long usable, long total, long size) {
    long after = usable - Math.max(0, size);
    double keptPercent = 100.0 - maxUtilizationPercent + MARGIN_PERCENT;
    return after >= Math.max(minFreeBytes, (long) (total * keptPercent / 100));
  }
}
