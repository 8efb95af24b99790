package org.mpcache.conf;

/**
 * Every mpCache configuration key, declared once with its default beside it (the
 * {@code DFSConfigKeys} idiom). {@code docs/configuration.md} documents each of them.
 */
public final class MpCacheConfigKeys {
  private MpCacheConfigKeys() {
  }

  /** Master switch for the DataNode cache slave. Off: the DataNode is stock Hadoop. */
  public static final String DFS_MPCACHE_ENABLED_KEY = "dfs.mpcache.enabled";
  public static final boolean DFS_MPCACHE_ENABLED_DEFAULT = false;

  /** Comma-separated SSD directories; each must exist (usually an SSD mount point). */
  public static final String DFS_MPCACHE_DIRS_KEY = "dfs.mpcache.dirs";

  /**
   * Cache capacity of the node in bytes (size suffixes k, m, g, t accepted), split evenly
   * among the directories. 0 means 90 % of each directory's usable space at start-up.
   */
  public static final String DFS_MPCACHE_CAPACITY_KEY = "dfs.mpcache.capacity";
  public static final long DFS_MPCACHE_CAPACITY_DEFAULT = 0;
  public static final double AUTO_CAPACITY_FRACTION = 0.9;

  /**
   * Threads that copy blocks to the SSD in the background when the reader cannot share
   * its pass over the HDD (short-circuit readers read the replica files themselves).
   * 0 disables background fills.
   */
  public static final String DFS_MPCACHE_FILL_THREADS_KEY = "dfs.mpcache.fill.background.threads";
  public static final int DFS_MPCACHE_FILL_THREADS_DEFAULT = 1;

  /** Background fills waiting for a thread; further requests are dropped, not queued. */
  public static final String DFS_MPCACHE_FILL_QUEUE_KEY = "dfs.mpcache.fill.background.queue";
  public static final int DFS_MPCACHE_FILL_QUEUE_DEFAULT = 64;

  /** The {@code dfs.datanode.fsdataset.factory} value that plugs the slave into the DataNode. */
  public static final String DATASET_FACTORY_CLASS =
      "org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDatasetFactory";
}
