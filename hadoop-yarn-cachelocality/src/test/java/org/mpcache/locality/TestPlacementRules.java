package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.mapreduce.v2.app.MpCacheMRAppMaster;
import org.junit.jupiter.api.Test;

/** The pure rules of map placement and read order. */
class TestPlacementRules {
  @Test
  void waitsExpireInOrderAtTheirDeadline() {
    CacheWaits<String, Integer> waits = new CacheWaits<>(1_000);
    waits.start("a", 1, 0);
    waits.start("b", 2, 500);
    assertEquals(Map.of(), waits.expire(999));
    assertEquals(Map.of("a", 1), waits.expire(1_000));
    assertTrue(waits.anyWaiting());
    assertEquals(Map.of("b", 2), waits.expire(5_000));
    assertFalse(waits.anyWaiting());
  }

  @Test
  void aTaskThatGotANodeNoLongerWaits() {
    CacheWaits<String, Integer> waits = new CacheWaits<>(1_000);
    waits.start("a", 1, 0);
    assertEquals(1, waits.end("a"));
    assertNull(waits.end("a"));
    assertEquals(Map.of(), waits.expire(2_000));
  }

  @Test
  void theLongestWaitingTaskThatFitsComesFirst() {
    CacheWaits<String, Integer> waits = new CacheWaits<>(1_000);
    waits.start("a", 1, 0);
    waits.start("b", 2, 10);
    waits.start("c", 3, 20);
    assertEquals("b", waits.longestWaiting(v -> v >= 2));
    assertNull(waits.longestWaiting(v -> v > 3));
    assertEquals(3, waits.size());
  }

  @Test
  void aWaitMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new CacheWaits<String, Integer>(0));
  }

  @Test
  void placementTellsSsdNodesFromOtherReplicasAndElsewhere() {
    MapInput input = new MapInput(List.of("h1", "h2"), Set.of("h2"));
    assertTrue(input.onSsd());
    assertEquals(MapInput.Placement.CACHE_LOCAL, input.placementOn("h2"));
    assertEquals(MapInput.Placement.REPLICA_LOCAL, input.placementOn("h1"));
    assertEquals(MapInput.Placement.REMOTE, input.placementOn("h3"));
    assertFalse(new MapInput(List.of("h1"), Set.of()).onSsd());
  }

  @Test
  void readersTryTheirOwnReplicaThenSsdCopiesThenTheRest() {
    List<String> hosts = List.of("h1", "h2", "h3");
    List<String> nodes = List.of("u1", "u2", "u3");
    assertEquals(List.of(2, 1, 0), ReplicaOrder.of(hosts, nodes, "h3", Set.of("u2")),
        "a local HDD replica beats a remote SSD copy");
    assertEquals(List.of(1, 0, 2), ReplicaOrder.of(hosts, nodes, "elsewhere", Set.of("u2")));
    assertEquals(List.of(0, 1, 2), ReplicaOrder.of(hosts, nodes, null, Set.of()),
        "without SSD copies the NameNode's order stands");
  }

  @Test
  void theJobRunnerStartsMpCachesApplicationMaster() throws IOException {
    assertEquals(MpCacheMRAppMaster.class.getName(), MpCacheYarnRunner.APP_MASTER);
    String stock = "$JAVA_HOME/bin/java -Xmx1g " + MpCacheYarnRunner.STOCK_APP_MASTER
        + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr ";
    assertEquals(List.of("$JAVA_HOME/bin/java -Xmx1g " + MpCacheYarnRunner.APP_MASTER
        + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr "),
        MpCacheYarnRunner.withMpCacheAppMaster(List.of(stock)));
    IOException e = assertThrows(IOException.class,
        () -> MpCacheYarnRunner.withMpCacheAppMaster(List.of("java SomethingElse")));
    assertTrue(e.getMessage().contains(MpCacheYarnRunner.STOCK_APP_MASTER), e.getMessage());
  }
}
