package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.JobSampler.Sample;

class TestJobSampler {
  private static final long MS = 1_000_000;
  private static final long[] NO_SLAVES = new long[0];
  /** HDD 0 busy all of 0-1000 ms and idle after; HDD 1 busy half the time throughout. */
  private static final List<Sample> SAMPLES = List.of(
      new Sample(0, new long[] {0, 0}, NO_SLAVES),
      new Sample(1000, new long[] {1000 * MS, 500 * MS}, NO_SLAVES),
      new Sample(2000, new long[] {1000 * MS, 1000 * MS}, NO_SLAVES));

  @Test
  void theBusiestHddOfTheSpanCounts() {
    assertEquals(1.0, JobSampler.busiestShare(SAMPLES, 0, 1000), 1e-9);
    assertEquals(0.5, JobSampler.busiestShare(SAMPLES, 1000, 2000), 1e-9);
    assertEquals(0.5, JobSampler.busiestShare(SAMPLES, 0, 2000), 1e-9);
  }

  @Test
  void momentsBetweenSamplesAreInterpolated() {
    // 500-1500 ms: HDD 0 busy 500 of 1000 ms, HDD 1 busy 500 of 1000 ms
    assertEquals(0.5, JobSampler.busiestShare(SAMPLES, 500, 1500), 1e-9);
    assertEquals(1.0, JobSampler.busiestShare(SAMPLES, 250, 750), 1e-9);
  }

  @Test
  void noSpanOrNoHddsIsNotMeasured() {
    assertTrue(Double.isNaN(JobSampler.busiestShare(SAMPLES, 1000, 1000)));
    assertTrue(Double.isNaN(JobSampler.busiestShare(
        List.of(new Sample(0, new long[0], NO_SLAVES)), 0, 10)));
  }

  /** Slave 0 lends room early in the job and gets it back; slave 1 late, and keeps lending. */
  @Test
  void eachSlavesLeastRoomForInputIsItsLowPointWhenever() {
    List<Sample> samples = List.of(
        new Sample(0, NO_SLAVES, new long[] {32, 32}),
        new Sample(100, NO_SLAVES, new long[] {16, 32}),
        new Sample(200, NO_SLAVES, new long[] {32, 24}),
        new Sample(300, NO_SLAVES, new long[] {32, 24}));
    assertArrayEquals(new long[] {16, 24}, JobSampler.leastInputRoom(samples));
    assertArrayEquals(new long[0], JobSampler.leastInputRoom(List.of()));
  }
}
