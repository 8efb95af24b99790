package org.mpcache.slave.inputcache;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;

/** The DataNode's own (HDD) replicas, as the cache sees them: their state and their streams. */
public interface ReplicaSource {
  /** The finalized replica of the block, or null when it is missing or not finalized. */
  LiveReplica finalizedReplica(BlockKey key);

  /** The replica's data, positioned at {@code offset}: what stock Hadoop would return. */
  InputStream openData(ExtendedBlock block, long offset) throws IOException;

  /** The replica's checksum (meta) file from its start, or null: what stock Hadoop would return. */
  LengthInputStream openMeta(ExtendedBlock block) throws IOException;
}
