package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapreduce.v2.app.MRAppMaster;
import org.junit.jupiter.api.Test;

/**
 * The MapReduce and HDFS client internals mpCache reaches without the compiler's help
 * (docs/architecture.md, "Hadoop internals"): a Hadoop upgrade that changes one fails here,
 * naming it, instead of jobs silently running as stock or ApplicationMasters not exiting.
 */
class TestHadoopInternalsByName {
  /** MpCacheMRAppMaster sets it by reflection so that MRAppMaster exits the JVM at job end. */
  @Test
  void mrAppMasterStillHasItsMainStartedFlag() throws Exception {
    Field mainStarted = MRAppMaster.class.getDeclaredField("mainStarted");
    assertEquals(boolean.class, mainStarted.getType(), "MRAppMaster.mainStarted");
    assertTrue(Modifier.isStatic(mainStarted.getModifiers()), "MRAppMaster.mainStarted");
  }

  /**
   * ClientChoosingDistributedFileSystem overrides this package-private method; were it renamed,
   * an mpCache jar built before would silently get a stock client.
   */
  @Test
  void distributedFileSystemStillCreatesItsClientInInitDfsClient() throws Exception {
    DistributedFileSystem.class.getDeclaredMethod("initDFSClient", URI.class,
        Configuration.class);
    assertEquals(DFSClient.class, DistributedFileSystem.class.getDeclaredField("dfs").getType(),
        "DistributedFileSystem.dfs");
  }
}
