package org.mpcache.slave.inputcache;

import java.io.FileInputStream;

import org.apache.hadoop.io.IOUtils;

/**
 * What the cache decided when a reader opened one of a block's two streams, kept for the other
 * open on the same thread: BlockSender opens the checksums then the data, a short-circuit
 * request the data then the checksums.
 *
 * @param replica the replica the decision was made for
 * @param hit the copy being read remotely, or null on a miss
 * @param handedOutMeta the copy's open checksum file, for a short-circuit hand-out
 * @param handedOutMetaLength its length
 */
record PendingRead(BlockKey key, LiveReplica replica, CopyRead hit, FileInputStream handedOutMeta,
    long handedOutMetaLength) {

  static PendingRead miss(BlockKey key, LiveReplica replica) {
    return new PendingRead(key, replica, null, null, 0);
  }

  static PendingRead hit(BlockKey key, LiveReplica replica, CopyRead hit) {
    return new PendingRead(key, replica, hit, null, 0);
  }

  static PendingRead handout(BlockKey key, FileInputStream meta, long metaLength) {
    return new PendingRead(key, null, null, meta, metaLength);
  }

  /** Releases what the other open was to take over. */
  void release() {
    if (hit != null && !hit.dataViewOpen()) {
      hit.close();
    }
    IOUtils.closeStream(handedOutMeta);
  }
}
