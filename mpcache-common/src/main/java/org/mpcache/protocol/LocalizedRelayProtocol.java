package org.mpcache.protocol;

import java.io.IOException;

/**
 * What the NodeManager's relay tells its node's cache slave over the localized-space channel:
 * the key each job's tasks prove their job with, while the job has containers on the node.
 */
public interface LocalizedRelayProtocol {
  /**
   * A job key lapses on the DataNode unless admitted again within this (a NodeManager that
   * restarted forgets nothing); the relay sends every live job's key every quarter of it.
   */
  long KEY_LEASE_MILLIS = 120_000;

  /**
   * The job's tasks will prove their job with the key {@code maskedKey} carries
   * ({@link LocalizedChannelKeys#mask}).
   */
  void admitJob(String jobId, byte[] maskedKey) throws IOException;

  /** The job ended on this node: its key goes. */
  void forgetJob(String jobId) throws IOException;
}
