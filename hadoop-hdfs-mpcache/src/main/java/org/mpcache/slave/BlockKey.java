package org.mpcache.slave;

/** A block as the cache names it: block pool and block id (the generation stamp lives on the copy). */
public record BlockKey(String blockPoolId, long blockId) {
  @Override
  public String toString() {
    return blockPoolId + ":blk_" + blockId;
  }
}
