package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestInterval {
  @Test
  void theMeanHasTheStudentInterval() {
    // mean 1, standard error 1, t(0.975, 1 degree of freedom) = 12.7062
    Interval mean = Interval.ofMean(new double[] {0, 2});
    assertEquals(1, mean.estimate(), 1e-12);
    assertEquals(1 - 12.706204736, mean.low(), 1e-8);
    assertEquals(1 + 12.706204736, mean.high(), 1e-8);
    assertEquals(2, mean.n());
    assertEquals("1.0 (-11.7 to 13.7)", mean.format("%.1f"));
  }

  @Test
  void oneValueHasNoInterval() {
    Interval one = Interval.ofMean(new double[] {3});
    assertFalse(one.hasBounds());
    assertEquals("3.0", one.format("%.1f"));
  }

  @Test
  void halfWidthIsJudgedAgainstTheEstimate() {
    assertTrue(new Interval(2, 1.85, 2.15, 10).within(0.1));
    assertFalse(new Interval(2, 1.8, 2.3, 10).within(0.1));
  }
}
