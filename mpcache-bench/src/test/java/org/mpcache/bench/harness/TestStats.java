package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.Stats.Fraction;
import org.mpcache.simulator.Interval;

class TestStats {
  private static final Fraction EVEN = new Fraction(1, 1);
  private static final Fraction TRIPLE = new Fraction(3, 1);

  @Test
  void ratioOfSumsIsTheSumsRatioNotTheMeanOfRatios() {
    Interval ratio = Stats.ratioOfSums(List.of(List.of(new Fraction(60, 20),
        new Fraction(60, 30))));
    assertEquals(120.0 / 50, ratio.estimate(), 1e-12);
    assertEquals(2, ratio.n());
  }

  @Test
  void bootstrapIntervalIsThePercentilesOfTheResampledRatios() {
    // resamples of two jobs: both even (1), one of each (4 / 2) or both triple (3), each of the
    // outer two a quarter of the time, so the 2.5 and 97.5 percentiles are 1 and 3
    Interval ratio = Stats.ratioOfSums(List.of(List.of(EVEN, TRIPLE)));
    assertEquals(new Interval(2, 1, 3, 2), ratio);
  }

  @Test
  void resamplesDrawEachSeedsJobsFromThatSeedOnly() {
    // one job per seed: every resample is the original, whatever the jobs' ratios
    Interval perSeed = Stats.ratioOfSums(List.of(List.of(EVEN), List.of(TRIPLE)));
    assertEquals(new Interval(2, 2, 2, 2), perSeed);
    Interval pooled = Stats.ratioOfSums(List.of(List.of(EVEN, TRIPLE)));
    assertTrue(pooled.low() < 2 && pooled.high() > 2, pooled.toString());
  }

  @Test
  void theSameFractionsGiveTheSameInterval() {
    List<List<Fraction>> strata = List.of(List.of(EVEN, TRIPLE, new Fraction(5, 2)),
        List.of(new Fraction(4, 3), TRIPLE));
    assertEquals(Stats.ratioOfSums(strata), Stats.ratioOfSums(strata));
  }

  /**
   * Two throughput ratios measured against different baseline runs: the estimate is their
   * quotient, and each is resampled on its own (one job each: nothing to resample).
   */
  @Test
  void theQuotientOfTwoRatiosResamplesEachOnItsOwn() {
    Interval quotient = Stats.quotient(List.of(List.of(new Fraction(6, 2))),
        List.of(List.of(new Fraction(3, 2))));
    assertEquals(new Interval(2, 2, 2, 1), quotient);
    List<List<Fraction>> strata = List.of(List.of(EVEN, TRIPLE), List.of(new Fraction(5, 2)));
    Interval spread = Stats.quotient(strata, List.of(List.of(EVEN, TRIPLE)));
    assertEquals(Stats.ratioOfSums(strata).estimate() / 2, spread.estimate(), 1e-12);
    assertTrue(spread.high() - spread.low() > Stats.ratioOfSums(strata).high()
        - Stats.ratioOfSums(strata).low(), "the denominator's spread widens the interval");
  }

  @Test
  void noFractionsNoRatio() {
    Interval none = Stats.ratioOfSums(List.of(List.of()));
    assertTrue(Double.isNaN(none.estimate()));
    assertEquals(0, none.n());
    assertFalse(none.within(0.1));
  }

  @Test
  void geometricMeanHasTheStudentIntervalOfTheMeanLog() {
    // logs 0 and 2: mean 1, standard error 1, t(0.975, 1 degree of freedom) = 12.7062
    Interval mean = Stats.geometricMean(List.of(1.0, Math.exp(2)));
    assertEquals(Math.E, mean.estimate(), 1e-12);
    assertEquals(Math.exp(1 - 12.706204736), mean.low(), 1e-9 * mean.low());
    assertEquals(Math.exp(1 + 12.706204736), mean.high(), 1e-9 * mean.high());
  }

  @Test
  void oneRatioHasNoInterval() {
    Interval one = Stats.geometricMean(List.of(2.0));
    assertEquals(2, one.estimate(), 1e-12);
    assertFalse(one.hasBounds());
  }

  @Test
  void quantilesInterpolateBetweenRanks() {
    double[] sorted = {1, 2, 3, 4};
    assertEquals(2.5, Stats.quantile(sorted, 0.5), 1e-12);
    assertEquals(1, Stats.quantile(sorted, 0), 1e-12);
    assertEquals(4, Stats.quantile(sorted, 1), 1e-12);
  }

  @Test
  void weightedMeanLeavesOutMissingValues() {
    List<double[]> valueAndWeight = List.of(new double[] {0.9, 8}, new double[] {0.5, 24},
        new double[] {Double.NaN, 100});
    assertEquals(0.6, Stats.weightedMean(valueAndWeight, v -> v[0], v -> v[1]), 1e-12);
    assertTrue(Double.isNaN(Stats.weightedMean(List.of(new double[] {Double.NaN, 1}),
        v -> v[0], v -> v[1])));
  }
}
