package org.mpcache.protocol;

/**
 * The master's answer to a heartbeat: register again (it does not know the slave), the blocks
 * of evicted data sets the slave is to delete now (the paper's To_Del), and the blocks an admin
 * loads that the slave is to copy from its replicas to its SSD.
 */
public record HeartbeatAnswer(boolean reregister, long[] evict, long[] load) {
  private static final long[] NONE = new long[0];
  public static final HeartbeatAnswer REREGISTER = new HeartbeatAnswer(true, NONE, NONE);

  public static HeartbeatAnswer of(long[] evict, long[] load) {
    return new HeartbeatAnswer(false, evict, load);
  }
}
