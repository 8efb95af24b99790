package org.mpcache.slave;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;

/** The DataNode's HDD replicas, as the cache sees them: their state and their streams. */
public interface ReplicaSource {
  /** The finalized replica of the block, or null when it is missing or not finalized. */
  LiveReplica finalizedReplica(BlockKey key);

  /** The replica's data on HDD, positioned at {@code offset}. */
  InputStream openData(BlockKey key, long offset) throws IOException;

  /** The replica's checksum (meta) file on HDD, from its start. */
  LengthInputStream openMeta(BlockKey key) throws IOException;
}
