package org.mpcache.conf;

import org.mpcache.policy.ReplacementPolicies;

/**
 * Every mpCache configuration key, declared once with its default beside it (the
 * {@code DFSConfigKeys} idiom): the registry of keys. {@code mpcache-default.xml} gives each its
 * default and {@code docs/configuration.md} documents it; TestConfigKeyRegistry keeps the three
 * in step. The Java defaults stay the fallbacks of the code that reads the keys.
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

  /**
   * A short-circuit reader gets an SSD copy's files only after the copy was read and verified
   * whole within this long (the reader checks nothing the DataNode does not). 0: at every
   * hand-out.
   */
  public static final String DFS_MPCACHE_HANDOUT_MAX_AGE_KEY =
      "dfs.mpcache.short-circuit.verify.max-age";
  public static final long DFS_MPCACHE_HANDOUT_MAX_AGE_DEFAULT_MS = 0;

  /**
   * Bytes per second the scrubber reads from each SSD dir to verify every copy in turn; rot is
   * found within one pass (what the dir holds / this rate). 0 turns scrubbing off.
   */
  public static final String DFS_MPCACHE_SCRUB_RATE_KEY = "dfs.mpcache.scrub.bytes-per-second";
  public static final long DFS_MPCACHE_SCRUB_RATE_DEFAULT = 32L << 20;

  /** How often each SSD dir is checked (a failed one: whether it can be used again). */
  public static final String DFS_MPCACHE_DIR_CHECK_KEY = "dfs.mpcache.dir.check.interval";
  public static final long DFS_MPCACHE_DIR_CHECK_DEFAULT_MS = 30_000;

  /** A call to an SSD dir's device that has not returned after this long takes the dir out of use. */
  public static final String DFS_MPCACHE_DIR_IO_TIMEOUT_KEY = "dfs.mpcache.dir.io.timeout";
  public static final long DFS_MPCACHE_DIR_IO_TIMEOUT_DEFAULT_MS = 10_000;

  // ---- The master (a NameNode plugin) and the slaves' link to it --------------------------

  /** The {@code dfs.namenode.plugins} value that runs the cache master in the NameNode. */
  public static final String MASTER_PLUGIN_CLASS = "org.mpcache.master.MpCacheMasterPlugin";

  /**
   * host:port of the cache master's RPC endpoint: the master listens on its port, slaves and
   * {@code MpCacheAdmin} connect to it. With NameNode HA, one per NameNode, suffixed as Hadoop's
   * own keys: {@code dfs.mpcache.master.address.<nameservice>.<namenode id>} (the active one
   * answers; {@link MasterAddresses}). Empty: no master, each slave decides on its own (LRU).
   */
  public static final String DFS_MPCACHE_MASTER_ADDRESS_KEY = "dfs.mpcache.master.address";

  /** The address the master binds to instead of the host of the address above (e.g. 0.0.0.0). */
  public static final String DFS_MPCACHE_MASTER_BIND_HOST_KEY = "dfs.mpcache.master.bind-host";

  public static final String DFS_MPCACHE_MASTER_HANDLERS_KEY = "dfs.mpcache.master.handler.count";
  public static final int DFS_MPCACHE_MASTER_HANDLERS_DEFAULT = 10;

  /** The master's replacement policy, a name {@link ReplacementPolicies} knows. */
  public static final String DFS_MPCACHE_MASTER_POLICY_KEY = "dfs.mpcache.master.policy";
  public static final String DFS_MPCACHE_MASTER_POLICY_DEFAULT = ReplacementPolicies.DEFAULT;

  /** The {@code Full} bonus of a data set whose every block is cached (Eq. 2). */
  public static final String DFS_MPCACHE_MASTER_FULL_BONUS_KEY = "dfs.mpcache.master.full.bonus";
  public static final double DFS_MPCACHE_MASTER_FULL_BONUS_DEFAULT = 1.0;

  /** Admission control's access distance for a data set read twice back to back (Δ = 0 guard). */
  public static final String DFS_MPCACHE_MASTER_BACK_TO_BACK_KEY =
      "dfs.mpcache.master.admission.back-to-back-distance";
  public static final double DFS_MPCACHE_MASTER_BACK_TO_BACK_DEFAULT = 0.01;

  /** What a data set is: the directory holding a file (directory), or each file (file). */
  public static final String DFS_MPCACHE_MASTER_DATASET_KEY = "dfs.mpcache.master.dataset";
  public static final String DFS_MPCACHE_MASTER_DATASET_DEFAULT = "directory";

  /**
   * Comma-separated HDFS path prefixes whose blocks are never cached and never form data sets,
   * beside Hadoop's own staging, job-history and aggregated-log dirs (always excluded).
   */
  public static final String DFS_MPCACHE_MASTER_EXCLUDE_KEY = "dfs.mpcache.master.exclude.paths";

  /** Comma-separated HDFS path prefixes: when set, only blocks under them are cached. */
  public static final String DFS_MPCACHE_MASTER_INCLUDE_KEY = "dfs.mpcache.master.include.paths";

  /**
   * After the master starts (or its NameNode becomes active) it makes no decision until every
   * live DataNode's slave has registered, or this long at most (slaves decide locally meanwhile).
   */
  public static final String DFS_MPCACHE_MASTER_RECOVERY_KEY = "dfs.mpcache.master.recovery.timeout";
  public static final long DFS_MPCACHE_MASTER_RECOVERY_DEFAULT_MS = 60_000;

  /** A slave silent this long is dropped; its copies are forgotten until it registers again. */
  public static final String DFS_MPCACHE_MASTER_EXPIRY_KEY = "dfs.mpcache.master.slave.expiry";
  public static final long DFS_MPCACHE_MASTER_EXPIRY_DEFAULT_MS = 30_000;

  /** Data sets the Dynamic Space Manager remembers (size, accesses), most recent first. */
  public static final String DFS_MPCACHE_MASTER_HISTORY_KEY = "dfs.mpcache.master.history.size";
  public static final int DFS_MPCACHE_MASTER_HISTORY_DEFAULT = 1000;
  /** A data set without copies and unread this long is forgotten (docs/architecture.md). */
  public static final String DFS_MPCACHE_MASTER_DATASET_IDLE_KEY =
      "dfs.mpcache.master.dataset.idle-expiry";
  public static final long DFS_MPCACHE_MASTER_DATASET_IDLE_DEFAULT_MS = 24L * 60 * 60 * 1000;

  /**
   * Data sets the master tracks at most; beyond, the least recently seen that hold no copy, pin
   * or TTL are forgotten. 0: derived from the NameNode's heap ({@link
   * #maxTrackedDataSetsFor}).
   */
  public static final String DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY =
      "dfs.mpcache.master.dataset.max-tracked";
  public static final int DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_DEFAULT = 0;
  /** Heap a tracked data set takes, about: 1 KB of records (policies.md) and its path. */
  public static final long TRACKED_DATA_SET_BYTES = 2048;
  /** The share of the NameNode's heap the derived cap lets tracked data sets take. */
  public static final double TRACKED_DATA_SETS_HEAP_SHARE = 0.02;
  /** The derived cap is never below this. */
  public static final int MIN_TRACKED_DATA_SETS = 10_000;

  /** The cap on tracked data sets derived from a NameNode's maximum heap. */
  public static int maxTrackedDataSetsFor(long maxHeapBytes) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(MIN_TRACKED_DATA_SETS,
        (long) (maxHeapBytes * TRACKED_DATA_SETS_HEAP_SHARE) / TRACKED_DATA_SET_BYTES));
  }

  /** Share of each node's SSD cache that pinned data sets may take (the rest stays the policy's). */
  public static final String DFS_MPCACHE_MASTER_PIN_SHARE_KEY = "dfs.mpcache.master.pin.max-share";
  public static final double DFS_MPCACHE_MASTER_PIN_SHARE_DEFAULT = 0.5;

  /**
   * Blocks of an admin's load ({@code hdfs mpcacheadmin -load}) each slave is copying at most at
   * once: the load's pace is that of the node's background fill threads.
   */
  public static final String DFS_MPCACHE_MASTER_LOAD_IN_FLIGHT_KEY =
      "dfs.mpcache.master.load.blocks-in-flight";
  public static final int DFS_MPCACHE_MASTER_LOAD_IN_FLIGHT_DEFAULT = 2;

  /**
   * Seconds, comma-separated, over which the master's metrics give percentiles of its calls'
   * latencies and namesystem lock holds ({@code dfs.metrics.percentiles.intervals} for the
   * NameNode's own).
   */
  public static final String DFS_MPCACHE_MASTER_PERCENTILES_KEY =
      "dfs.mpcache.master.metrics.percentiles.intervals";
  public static final String DFS_MPCACHE_MASTER_PERCENTILES_DEFAULT = "60";

  /**
   * How often a slave sends the master its usage and batched access reports. A bare number is
   * seconds, as Hadoop's {@code dfs.heartbeat.interval}.
   */
  public static final String DFS_MPCACHE_HEARTBEAT_KEY = "dfs.mpcache.slave.heartbeat.interval";
  public static final long DFS_MPCACHE_HEARTBEAT_DEFAULT_MS = 3_000;

  /** A slave's call to the master fails after this; the slave then decides locally. */
  public static final String DFS_MPCACHE_MASTER_TIMEOUT_KEY = "dfs.mpcache.master.rpc.timeout";
  public static final long DFS_MPCACHE_MASTER_TIMEOUT_DEFAULT_MS = 2_000;

  /** Hits and misses a slave keeps for its next heartbeat; beyond, further ones are dropped. */
  public static final String DFS_MPCACHE_REPORT_BATCH_KEY = "dfs.mpcache.report.batch.max";
  public static final int DFS_MPCACHE_REPORT_BATCH_DEFAULT = 100_000;

  /**
   * Comma-separated SSD directories for MapReduce intermediate data (localized data); each must
   * also be one of the NodeManager's {@code yarn.nodemanager.local-dirs} on this node. Empty:
   * no localized caching, the whole SSD cache holds input data.
   */
  public static final String DFS_MPCACHE_LOCALIZED_DIRS_KEY = "dfs.mpcache.localized.dirs";

  /**
   * Where the slave serves its node's task JVMs (loopback; port 0 = any free port). Tasks find
   * the address in a file the slave keeps in each localized dir.
   */
  public static final String DFS_MPCACHE_LOCALIZED_ADDRESS_KEY = "dfs.mpcache.localized.address";
  public static final String DFS_MPCACHE_LOCALIZED_ADDRESS_DEFAULT = "127.0.0.1:0";

  /** Share of the SSD cache in the Dynamic Pool, used by input or localized data on demand. */
  public static final String DFS_MPCACHE_POOL_SHARE_KEY = "dfs.mpcache.pool.share";
  public static final double DFS_MPCACHE_POOL_SHARE_DEFAULT = 0.5;

  /** Share of the SSD cache that only localized data uses (the Localized Cache). */
  public static final String DFS_MPCACHE_LOCALIZED_SHARE_KEY = "dfs.mpcache.localized.share";
  public static final double DFS_MPCACHE_LOCALIZED_SHARE_DEFAULT = 0.1;

  /**
   * The Dynamic Space Tuner's unit in bytes; 0: one block, or a 64th of the cache when it holds
   * fewer than 64 blocks ({@code DynamicPool.unitFor}).
   */
  public static final String DFS_MPCACHE_POOL_UNIT_KEY = "dfs.mpcache.pool.unit";
  public static final long DFS_MPCACHE_POOL_UNIT_DEFAULT = 0;

  /** Localized utilisation under which the pool units it holds return to input data. */
  public static final String DFS_MPCACHE_POOL_GUARD_KEY = "dfs.mpcache.pool.guard";
  public static final double DFS_MPCACHE_POOL_GUARD_DEFAULT = 0.5;

  /** A task attempt's grants lapse when it has not renewed them for this long (killed, hung). */
  public static final String DFS_MPCACHE_LOCALIZED_LEASE_KEY = "dfs.mpcache.localized.lease";
  public static final long DFS_MPCACHE_LOCALIZED_LEASE_DEFAULT_MS = 10_000;

  /**
   * How long a task's request may wait for input data to be evicted from the pool units it
   * needs (the master decides on the slave's next heartbeat, which the request hastens); then
   * the task writes to HDD.
   */
  public static final String DFS_MPCACHE_LOCALIZED_EVICTION_WAIT_KEY =
      "dfs.mpcache.localized.eviction.wait";
  public static final long DFS_MPCACHE_LOCALIZED_EVICTION_WAIT_DEFAULT_MS = 1_000;

  /** How often the slave measures the localized dirs (files deleted return their room). */
  public static final String DFS_MPCACHE_LOCALIZED_SCAN_KEY = "dfs.mpcache.localized.scan.interval";
  public static final long DFS_MPCACHE_LOCALIZED_SCAN_DEFAULT_MS = 1_000;

  /**
   * A file holding the secret the NodeManager's relay proves itself with when it hands the
   * DataNode each job's channel key; the DataNode (hdfs-site.xml) and the NodeManager
   * (yarn-site.xml) of a node name the same secret, readable by their users only. Unset: tasks'
   * attempt ids are taken as they come (docs/security.md).
   */
  public static final String DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY =
      "dfs.mpcache.localized.relay.secret.file";
  /** Shorter relay secrets are refused: a guessable one proves nothing. */
  public static final int DFS_MPCACHE_LOCALIZED_RELAY_SECRET_MIN_BYTES = 16;

  /** Share of what localized data may ever hold that one job's running attempts may be granted. */
  public static final String DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_KEY =
      "dfs.mpcache.localized.job.max-share";
  public static final double DFS_MPCACHE_LOCALIZED_JOB_MAX_SHARE_DEFAULT = 0.8;

  /** Share of what localized data may ever hold that one task attempt may be granted. */
  public static final String DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_KEY =
      "dfs.mpcache.localized.attempt.max-share";
  public static final double DFS_MPCACHE_LOCALIZED_ATTEMPT_MAX_SHARE_DEFAULT = 0.5;

  // ---- The other modules' keys: cache-aware placement and the tasks' HDD dirs -------------

  /** How block locations show the SSD copies: annotate, cache-first or cache-only. */
  public static final String MPCACHE_LOCALITY_MODE_KEY = "mpcache.locality.mode";
  public static final String MPCACHE_LOCALITY_MODE_DEFAULT = "cache-only";

  /** How long a map whose block is on some SSD waits for one of those nodes. */
  public static final String MPCACHE_LOCALITY_CACHE_WAIT_KEY = "mpcache.locality.cache-wait";
  public static final long MPCACHE_LOCALITY_CACHE_WAIT_DEFAULT_MS = 3_000;

  /** Then how long it waits for one of its replicas' nodes before it may run anywhere. */
  public static final String MPCACHE_LOCALITY_REPLICA_WAIT_KEY = "mpcache.locality.replica-wait";
  public static final long MPCACHE_LOCALITY_REPLICA_WAIT_DEFAULT_MS = 3_000;

  /** Comma-separated {@code <dir prefix>=<MB/s>}: HDD local dirs filled by bandwidth. */
  public static final String MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY =
      "mapreduce.mpcache.local-dirs.bandwidth";

  /** The {@code dfs.datanode.fsdataset.factory} value that plugs the slave into the DataNode. */
  public static final String DATASET_FACTORY_CLASS =
      "org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDatasetFactory";
}
