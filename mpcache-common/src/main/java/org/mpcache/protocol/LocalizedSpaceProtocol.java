package org.mpcache.protocol;

import java.io.IOException;

/**
 * What a task JVM asks its node's cache slave (the Dynamic Space Tuner) over the local channel:
 * room on the SSD for intermediate files. A refusal is normal (the SSD's localized share is
 * full): the task writes to its HDD local dirs instead.
 */
public interface LocalizedSpaceProtocol {
  /**
   * The file at the top of each localized dir that names where the slave serves tasks
   * ("host:port"), which tasks and the NodeManager's relay read.
   */
  String ADDRESS_FILE = ".mpcache-slave";

  /**
   * The attempt will write {@code bytes} of intermediate data; granted bytes are its to write on
   * the SSD while it renews within the lease.
   */
  Reservation reserve(String attemptId, long bytes) throws IOException;

  /** The attempt runs on; false when the slave holds no grant of it. */
  boolean renew(String attemptId) throws IOException;

  /** The attempt ended: its grants go (its files count until YARN deletes them). */
  void finish(String attemptId) throws IOException;

  /** The answer to {@link #reserve}. */
  record Reservation(boolean granted, long leaseMillis) {
  }
}
