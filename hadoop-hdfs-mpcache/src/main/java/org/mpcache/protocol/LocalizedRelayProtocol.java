package org.mpcache.protocol;

import java.io.IOException;

/**
 * What the NodeManager's relay tells its node's cache slave over the localized-space channel:
 * the key each job's tasks prove their job with, while the job has containers on the node.
 */
public interface LocalizedRelayProtocol {
  /** The job's tasks will prove their job with {@code key}. */
  void admitJob(String jobId, byte[] key) throws IOException;

  /** The job ended on this node: its key goes. */
  void forgetJob(String jobId) throws IOException;
}
