package org.mpcache.protocol;

import java.io.IOException;
import java.util.List;

/**
 * What the cache master on the NameNode offers its slaves (the DataNodes' input caches) and the
 * admin CLI. Over the wire it is {@link MpCacheMasterProtocolPB}; a standby NameNode's master
 * answers every call with a {@link org.apache.hadoop.ipc.StandbyException}.
 */
public interface MpCacheMasterProtocol {
  /**
   * A slave (re)joins with every copy it holds of the master's block pool; the master forgets
   * what it believed of that slave and adopts the list.
   */
  Registration register(String datanodeUuid, String hostname, SlaveUsage usage,
      long[] cachedBlocks) throws IOException;

  /**
   * Periodic: usage, the block reads served from SSD ({@code hits}) or decided without the
   * master ({@code misses}), and the copies that appeared or left since the previous heartbeat.
   */
  HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage, long[] hits, long[] misses,
      long[] cached, long[] removed) throws IOException;

  /**
   * The slave is about to read an uncached block and asks whether to keep a copy; it brings the
   * hits it served since its last report, which the master counts before it decides.
   */
  AdmissionAnswer requestAdmission(String datanodeUuid, long blockId, long bytes, long[] hits)
      throws IOException;

  /** The state of the cache cluster-wide, for {@code MpCacheAdmin}. */
  MasterReport report() throws IOException;

  /**
   * The most block ids one {@link #cachedOn} call may ask about: the master answers it under its
   * lock, which its slaves' calls wait for. The client asks about more in batches.
   */
  int MAX_CACHED_ON_BLOCKS = 10_000;

  /**
   * The DataNodes (by UUID) whose SSD holds each block, in the order asked; empty for a block
   * the master knows no copy of. For cache-aware scheduling and {@code MpCacheAdmin -locations}.
   */
  List<List<String>> cachedOn(long[] blockIds) throws IOException;

  /** What a switched-off master's refusals say: the admin tool then asks the next NameNode's. */
  String SWITCHED_OFF = "is switched off";

  /**
   * Switches this NameNode's master off (it drops its state and refuses every call but this one;
   * slaves decide locally) or back on (it recovers from the slaves' registrations), until the
   * NameNode restarts. For HDFS superusers. Returns whether it was on.
   */
  boolean switchMaster(boolean on) throws IOException;

  /** How an admin steers a data set (docs/operations.md, "Steering the cache"). */
  enum ControlOp {
    /** Never evicted while pinned; the pin is kept on the path in the namespace. */
    PIN,
    UNPIN,
    /** Every copy leaves the SSDs, at each slave's next heartbeat. */
    FREE,
    /** Unread for longer than the TTL, the data set leaves the cache; a TTL of 0 clears it. */
    TTL,
    /**
     * The data set's blocks are copied to the SSD of a node holding a replica of each, a few
     * at a time per node, each admitted by the replacement policy as a read would be.
     */
    LOAD,
    /** Changes nothing: the data set as it stands, with its load's progress. */
    STATUS
  }

  /**
   * Steers the data set at {@code path} (a data set, or a file of one); for HDFS superusers.
   * {@code ttlMillis} is read by {@link ControlOp#TTL} only. Returns the data set after the
   * change.
   */
  ControlAnswer control(ControlOp op, String path, long ttlMillis) throws IOException;

  /**
   * Re-reads the master's keys from its NameNode's configuration files and applies those that
   * changed where they can change without a NameNode restart; for HDFS superusers. A value the
   * master cannot use is refused, naming its key, and nothing changes.
   */
  RefreshAnswer refresh() throws IOException;
}
