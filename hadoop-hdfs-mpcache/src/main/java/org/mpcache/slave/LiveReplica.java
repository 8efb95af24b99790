package org.mpcache.slave;

/** What the DataNode's own dataset says about a finalized replica: the truth a copy must match. */
public record LiveReplica(long generationStamp, long length) {
}
