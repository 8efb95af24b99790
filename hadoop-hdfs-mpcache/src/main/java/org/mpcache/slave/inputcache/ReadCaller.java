package org.mpcache.slave.inputcache;

/**
 * Who asks the dataset for a replica's streams. Only reads for clients are served from or fill
 * the SSD: the block scanner must keep verifying the HDD replica itself, and the checksum and
 * replication paths have no use for the copy.
 */
public enum ReadCaller {
  /** {@code DataXceiver.readBlock}: a client read through a {@code BlockSender}. */
  CLIENT_READ,
  /** {@code DataNode.requestShortCircuitFdsForRead}: file descriptors passed to a local client. */
  SHORT_CIRCUIT_FDS,
  /**
   * {@code DataXceiver.requestShortCircuitFds} before it asks for the descriptors: it asks the
   * dataset {@code isCached} only when the request registers a shared-memory slot.
   */
  SHORT_CIRCUIT_SLOT,
  /** Anything else (block scanner, checksum, replication, balancer, centralized cache). */
  OTHER;

  private static final String DATANODE_PACKAGE = "org.apache.hadoop.hdfs.server.datanode.";
  private static final StackWalker WALKER = StackWalker.getInstance();
  /** Frames between the dataset call and DataXceiver / DataNode are few; a bound keeps it cheap. */
  private static final int MAX_DEPTH = 16;

  /** Classifies the current thread's call (a short stack walk, once per block open). */
  public static ReadCaller current() {
    return WALKER.walk(frames -> frames.limit(MAX_DEPTH)
        .map(frame -> classify(frame.getClassName(), frame.getMethodName()))
        .filter(caller -> caller != OTHER)
        .findFirst()
        .orElse(OTHER));
  }

  static ReadCaller classify(String className, String methodName) {
    if (className.equals(DATANODE_PACKAGE + "DataXceiver") && methodName.equals("readBlock")) {
      return CLIENT_READ;
    }
    if (className.equals(DATANODE_PACKAGE + "DataNode")
        && methodName.equals("requestShortCircuitFdsForRead")) {
      return SHORT_CIRCUIT_FDS;
    }
    if (className.equals(DATANODE_PACKAGE + "DataXceiver")
        && methodName.equals("requestShortCircuitFds")) {
      return SHORT_CIRCUIT_SLOT;
    }
    return OTHER;
  }
}
