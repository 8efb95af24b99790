package org.mpcache.slave.inputcache;

import org.apache.hadoop.hdfs.protocol.BlockType;

/** A block as the cache names it: block pool and block id (the generation stamp lives on the copy). */
public record BlockKey(String blockPoolId, long blockId) {
  /** True for an internal block of an erasure-coded (striped) block group. */
  public boolean striped() {
    return BlockType.fromBlockId(blockId) == BlockType.STRIPED;
  }

  @Override
  public String toString() {
    return blockPoolId + ":blk_" + blockId;
  }
}
