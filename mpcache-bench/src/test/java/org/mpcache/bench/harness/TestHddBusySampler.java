package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.HddBusySampler.Sample;

class TestHddBusySampler {
  private static final long MS = 1_000_000;
  /** HDD 0 busy all of 0-1000 ms and idle after; HDD 1 busy half the time throughout. */
  private static final List<Sample> SAMPLES = List.of(
      new Sample(0, new long[] {0, 0}),
      new Sample(1000, new long[] {1000 * MS, 500 * MS}),
      new Sample(2000, new long[] {1000 * MS, 1000 * MS}));

  @Test
  void theBusiestHddOfTheSpanCounts() {
    assertEquals(1.0, HddBusySampler.busiestShare(SAMPLES, 0, 1000), 1e-9);
    assertEquals(0.5, HddBusySampler.busiestShare(SAMPLES, 1000, 2000), 1e-9);
    assertEquals(0.5, HddBusySampler.busiestShare(SAMPLES, 0, 2000), 1e-9);
  }

  @Test
  void momentsBetweenSamplesAreInterpolated() {
    // 500-1500 ms: HDD 0 busy 500 of 1000 ms, HDD 1 busy 500 of 1000 ms
    assertEquals(0.5, HddBusySampler.busiestShare(SAMPLES, 500, 1500), 1e-9);
    assertEquals(1.0, HddBusySampler.busiestShare(SAMPLES, 250, 750), 1e-9);
  }

  @Test
  void noSpanOrNoHddsIsNotMeasured() {
    assertTrue(Double.isNaN(HddBusySampler.busiestShare(SAMPLES, 1000, 1000)));
    assertTrue(Double.isNaN(HddBusySampler.busiestShare(
        List.of(new Sample(0, new long[0])), 0, 10)));
  }
}
