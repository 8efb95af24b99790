package org.mpcache.slave.inputcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TestLocalArbiter {
  private static final BlockKey A = new BlockKey("bp", 1);
  private static final BlockKey B = new BlockKey("bp", 2);
  private static final BlockKey C = new BlockKey("bp", 3);

  @Test
  void admitsWithoutVictimsWhenTheBlockFits() {
    LocalArbiter arbiter = new LocalArbiter(100);
    Admission admission = arbiter.requestAdmission(A, 40, victims -> 100);
    assertTrue(admission.admitted());
    assertEquals(List.of(), admission.victims());
  }

  @Test
  void evictsLeastRecentlyHitBlocksToMakeRoom() {
    LocalArbiter arbiter = new LocalArbiter(100);
    arbiter.onCached(A, 40);
    arbiter.onCached(B, 40);
    arbiter.onHit(A);
    assertEquals(List.of(B), arbiter.requestAdmission(C, 40, victims -> 20).victims());
    arbiter.onRemoved(B);
    assertEquals(List.of(A), arbiter.requestAdmission(C, 80, victims -> 20).victims());
  }

  @Test
  void rejectsABlockLargerThanTheWholeCache() {
    assertFalse(new LocalArbiter(100).requestAdmission(A, 101, victims -> 100).admitted());
  }

  @Test
  void classifiesTheDataNodeEntryPoints() {
    assertEquals(ReadCaller.CLIENT_READ, ReadCaller.classify(
        "org.apache.hadoop.hdfs.server.datanode.DataXceiver", "readBlock"));
    assertEquals(ReadCaller.SHORT_CIRCUIT_FDS, ReadCaller.classify(
        "org.apache.hadoop.hdfs.server.datanode.DataNode", "requestShortCircuitFdsForRead"));
    assertEquals(ReadCaller.OTHER, ReadCaller.classify(
        "org.apache.hadoop.hdfs.server.datanode.VolumeScanner", "scanBlock"));
    assertEquals(ReadCaller.OTHER, ReadCaller.current());
  }
}
