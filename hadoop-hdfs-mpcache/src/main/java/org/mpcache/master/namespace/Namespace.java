package org.mpcache.master.namespace;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.mpcache.conf.CachedPaths;

/** What the master needs from the NameNode; a fake stands in for it in unit tests. */
public interface Namespace {
  /** The block pool whose blocks the master arbitrates. */
  String blockPoolId();

  /** The unit in which the master counts a slave's capacity ({@code dfs.blocksize}). */
  long blockSizeBytes();

  /**
   * The data set of each block and whether it starts its file, in order; null for a block the
   * namespace does not have (deleted, or of another block pool) or whose path is not cached.
   * Called with a batch of blocks, so that the namespace lock is not taken block by block.
   */
  BlockOwner[] ownersOf(long[] blockIds);

  /** UUIDs of the live DataNodes, or null while the NameNode cannot tell yet (safe mode). */
  Set<String> liveDataNodes();

  /**
   * True for a DataNode leaving service (decommissioning or decommissioned, entering or in
   * maintenance): it still serves its copies, but gets no new one and is not offered to
   * schedulers as an SSD holder.
   */
  boolean leavingService(String datanodeUuid);

  /**
   * The data set an admin names by {@code path}: a directory is one (or, with data sets per file,
   * holds none), a file is one or belongs to its directory's. Null when the path's blocks are not
   * cached ({@link CachedPaths}) or it names no data set.
   *
   * @throws java.io.FileNotFoundException when there is no such path
   */
  DataSetRef dataSetAt(String path) throws IOException;

  /**
   * The finalized blocks of the data set {@link #dataSetAt} returned as {@code ref}, each with
   * the DataNodes holding a replica of it, for an admin's load.
   *
   * @throws java.io.FileNotFoundException when its path is gone
   */
  List<BlockReplicas> blocksOf(DataSetRef ref) throws IOException;

  /**
   * Where a block belongs: its data set, and whether it is its file's first block (which no map
   * of another split reads into; docs/policies.md, "Data-set accesses in a running cluster").
   */
  record BlockOwner(DataSetRef dataSet, boolean startsFile) {
  }

  /** A block and the UUIDs of the DataNodes holding a replica of it. */
  record BlockReplicas(long blockId, List<String> datanodeUuids) {
  }

  /**
   * Nanoseconds this namespace has held the NameNode's namesystem lock, in all; the master reads
   * the difference over each call.
   */
  default long lockHeldNanos() {
    return 0;
  }

  /**
   * A data set as the namespace knows it: {@code key} identifies it for as long as it exists
   * (an inode id), {@code blocks} is its current size, and {@code control} what an admin set on
   * its path.
   */
  record DataSetRef(long key, String path, int blocks, DataSetControl control) {
    public DataSetRef(long key, String path, int blocks) {
      this(key, path, blocks, DataSetControl.NONE);
    }
  }
}
