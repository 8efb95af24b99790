package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** A job's input hit ratio from two per-node readings of the slaves' bytes from SSD. */
class TestSsdHitRatio {
  @Test
  void theBytesServedBetweenTheReadingsOverTheInput() {
    assertEquals(0.75, JobStream.ssdHitRatio(Map.of("a", 100L, "b", 0L),
        Map.of("a", 400L, "b", 450L), 1000), 1e-9);
  }

  @Test
  void atMostTheWholeInput() {
    assertEquals(1.0, JobStream.ssdHitRatio(Map.of("a", 0L), Map.of("a", 5000L), 1000), 1e-9);
  }

  @Test
  void blankWhenANodeCameOrWentOrItsCounterFell() {
    assertTrue(Double.isNaN(JobStream.ssdHitRatio(Map.of("a", 0L, "b", 0L), Map.of("a", 9L),
        10)));
    assertTrue(Double.isNaN(JobStream.ssdHitRatio(Map.of("a", 0L), Map.of("a", 9L, "b", 1L),
        10)));
    // A restarted DataNode counts from zero again.
    assertTrue(Double.isNaN(JobStream.ssdHitRatio(Map.of("a", 500L, "b", 0L),
        Map.of("a", 20L, "b", 400L), 1000)));
  }
}
