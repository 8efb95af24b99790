package org.mpcache.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * The DataNode internals mpCache finds by name, which no compiler checks
 * (docs/architecture.md, "Hadoop internals"): if a Hadoop upgrade renames one, this fails naming
 * it, instead of every read silently bypassing the cache.
 */
class TestHadoopInternalsByName {
  private static final String DATANODE = "org.apache.hadoop.hdfs.server.datanode.";

  /** The frames ReadCaller looks for on the stack of a dataset call. */
  @Test
  void theEntryPointsReadCallerRecognisesExist() throws Exception {
    assertDeclares(DATANODE + "DataXceiver", "readBlock");
    assertDeclares(DATANODE + "DataXceiver", "requestShortCircuitFds");
    assertDeclares(DATANODE + "DataNode", "requestShortCircuitFdsForRead");
  }

  static void assertDeclares(String className, String method) throws ClassNotFoundException {
    Class<?> type = Class.forName(className);
    assertTrue(Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(method)),
        className + "." + method + " is gone: mpCache relies on it (docs/architecture.md,"
            + " Hadoop internals)");
  }
}
