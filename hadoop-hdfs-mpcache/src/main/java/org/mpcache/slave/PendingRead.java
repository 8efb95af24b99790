package org.mpcache.slave;

import java.io.FileInputStream;

import org.mpcache.slave.store.CachedCopy;

/**
 * What the cache decided when a reader opened one of a block's two streams, kept for the other
 * open on the same thread: BlockSender opens the checksums then the data, a short-circuit
 * request the data then the checksums.
 *
 * @param copy the SSD copy being served, or null on a miss
 * @param checksums the block's checksums in memory (null when they could not be parsed)
 * @param copyMeta the copy's open checksum file, for a short-circuit hand-out
 */
record PendingRead(BlockKey key, LiveReplica replica, CachedCopy copy, BlockChecksums checksums,
    FileInputStream copyMeta) {
}
