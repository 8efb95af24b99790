package org.mpcache.protocol;

/**
 * The master's answer to a heartbeat: register again (it does not know the slave), and the
 * blocks of evicted data sets the slave is to delete now (the paper's To_Del).
 */
public record HeartbeatAnswer(boolean reregister, long[] evict) {
  private static final long[] NONE = new long[0];
  public static final HeartbeatAnswer REREGISTER = new HeartbeatAnswer(true, NONE);

  public static HeartbeatAnswer evict(long[] blocks) {
    return new HeartbeatAnswer(false, blocks);
  }
}
