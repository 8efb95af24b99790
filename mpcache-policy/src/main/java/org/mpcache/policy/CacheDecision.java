package org.mpcache.policy;

/**
 * A policy's answer to one block read on one node: a hit, or a miss that is cached (after the
 * node evicts {@code evict}) or not.
 */
public record CacheDecision(boolean hit, boolean admitted, long[] evict) {
  private static final long[] NONE = new long[0];
  public static final CacheDecision HIT = new CacheDecision(true, false, NONE);
  public static final CacheDecision REJECTED = new CacheDecision(false, false, NONE);
  public static final CacheDecision ADMITTED = new CacheDecision(false, true, NONE);

  public static CacheDecision admitAfterEvicting(long[] evict) {
    return evict.length == 0 ? ADMITTED : new CacheDecision(false, true, evict);
  }
}
