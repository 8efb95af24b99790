package org.mpcache.bench.harness;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT;

import java.io.File;
import java.util.List;

import org.mpcache.bench.device.DeviceProfile;

/**
 * What one harness run does: the cluster shape, the workload, the devices and the
 * configurations to compare.
 *
 * @param nodes DataNode + NodeManager pairs, each with one HDD and one SSD
 * @param blockBytes HDFS block size (small, so jobs have several map tasks)
 * @param history jobs drawn before the timed ones, whose reads warm the caches (untimed)
 * @param jobs jobs in the mix that are timed
 * @param zipfS parameter s of Equation (3)
 * @param maxK largest input scale
 * @param baseBytes input size at k = 1 for the smallest source of Table 1
 * @param seeds of the job streams to run (the same seed gives the same jobs, data and
 *     placement in every configuration)
 * @param setups configurations to compare; the first is the baseline of the speedups
 * @param hdd profile of the emulated HDDs; null with real devices
 * @param ssd profile of the emulated SSDs; null with real devices
 * @param ssdShare SSD cache size as a share of the working set, over all nodes
 * @param memoryShare in-memory cache size as a share of the SSD cache size
 * @param poolShare the slaves' Dynamic Pool as a share of their SSD cache
 *     ({@code dfs.mpcache.pool.share}) where localized data is on the SSD
 * @param workDir where clusters keep their data (put it on the HDD mount with real devices)
 * @param ssdDir where SSD data goes (the SSD mount with real devices)
 * @param containersPerNode task containers a NodeManager runs at once
 * @param checkOutputs whether each job's output is checked (outside the timings)
 * @param benchmarks the PUMA benchmarks the mix draws from (names; empty: all of them)
 * @param compressMapOutput whether map outputs are compressed (snappy), as production clusters
 *     usually run; Hadoop's default (and the paper's Hadoop 1) does not
 * @param existingClusterDir with {@code --cluster existing}, the HDFS folder of the streams'
 *     files on the cluster the client configuration names; null when the harness starts its own
 *     clusters (then the cluster shape, devices and cache sizes above apply)
 */
public record HarnessOptions(int nodes, long blockBytes, int history, int jobs, double zipfS,
    int maxK, long baseBytes, List<Long> seeds, List<ClusterSetup> setups,
    DeviceProfile hdd, DeviceProfile ssd, double ssdShare, double memoryShare,
    double poolShare, File workDir, File ssdDir, int containersPerNode, boolean checkOutputs,
    List<String> benchmarks, boolean compressMapOutput, String existingClusterDir) {

  /** The RAM cache beside the SSD cache per node: 12 GB against 80 GB (the mpCache paper §4). */
  public static final double PAPER_MEMORY_SHARE = 12.0 / 80.0;

  public HarnessOptions {
    if (!(poolShare >= 0 && poolShare + DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT <= 1)) {
      throw new IllegalArgumentException("--pool-share " + poolShare + ": the pool and the "
          + "Localized Cache's own share (" + DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT + ") must add "
          + "up to at most 1");
    }
  }

  /** These options for other seeds and configurations (a report over streams of several runs). */
  public HarnessOptions withRuns(List<Long> otherSeeds, List<ClusterSetup> otherSetups) {
    return new HarnessOptions(nodes, blockBytes, history, jobs, zipfS, maxK, baseBytes,
        otherSeeds, otherSetups, hdd, ssd, ssdShare, memoryShare, poolShare, workDir, ssdDir,
        containersPerNode, checkOutputs, benchmarks, compressMapOutput, existingClusterDir);
  }

  public boolean existingCluster() {
    return existingClusterDir != null;
  }

  public boolean emulated() {
    return hdd != null;
  }

  /** Each node's SSD cache for a mix whose data sets add up to {@code workingSetBytes}. */
  public long ssdBytesPerNode(long workingSetBytes) {
    return (long) Math.ceil(workingSetBytes * ssdShare / nodes);
  }

  /**
   * Each node's in-memory cache: {@link #memoryShare} of its SSD cache, rounded up to whole
   * blocks (at least one), since Hadoop caches whole blocks and at this scale the share alone can
   * be smaller than one.
   */
  public long memoryBytesPerNode(long workingSetBytes) {
    double blocks = ssdBytesPerNode(workingSetBytes) * memoryShare / blockBytes;
    return Math.max(1, (long) Math.ceil(blocks)) * blockBytes;
  }
}
