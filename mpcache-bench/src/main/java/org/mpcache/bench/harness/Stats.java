package org.mpcache.bench.harness;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

import org.mpcache.simulator.Interval;

/** Estimates with their 95 % confidence intervals, as the report gives them. */
final class Stats {
  static final int RESAMPLES = 10_000;
  /** Every bootstrap starts from the same generator state, so a report is the same every time. */
  private static final long RANDOM_SEED = 20_160_901L;
  private static final double CONFIDENCE = 0.95;

  /** One paired observation of a ratio: the reference's time over the other's. */
  record Fraction(double numerator, double denominator) {
  }

  private Stats() {
  }

  /**
   * Sum of the numerators over sum of the denominators, with a percentile bootstrap interval
   * that resamples the fractions within each stratum (a seed's jobs), so every resample keeps
   * each seed's share of the jobs.
   */
  static Interval ratioOfSums(Collection<List<Fraction>> strata) {
    return quotient(strata, List.of());
  }

  /**
   * The ratio of sums of {@code numerators} over that of {@code denominators} (each as in
   * {@link #ratioOfSums}), with a percentile bootstrap interval that resamples both
   * independently: for two throughput ratios measured against different baseline runs, whose
   * jobs do not pair with each other. With no denominator strata, the first ratio alone.
   */
  static Interval quotient(Collection<List<Fraction>> numerators,
      Collection<List<Fraction>> denominators) {
    List<Fraction[]> above = groups(numerators);
    List<Fraction[]> below = groups(denominators);
    int n = above.stream().mapToInt(g -> g.length).sum();
    if (n == 0) {
      return new Interval(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double estimate = ratioOfSums(above, null) / ratioOfSums(below, null);
    SplittableRandom random = new SplittableRandom(RANDOM_SEED);
    double[] resampled = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      resampled[i] = ratioOfSums(above, random) / ratioOfSums(below, random);
    }
    Arrays.sort(resampled);
    double tail = (1 - CONFIDENCE) / 2;
    return new Interval(estimate, quantile(resampled, tail), quantile(resampled, 1 - tail), n);
  }

  private static List<Fraction[]> groups(Collection<List<Fraction>> strata) {
    return strata.stream().filter(s -> !s.isEmpty()).map(s -> s.toArray(new Fraction[0]))
        .toList();
  }

  /**
   * The ratio of sums over the groups, each drawn again with replacement when random is set; 1
   * for no groups.
   */
  private static double ratioOfSums(List<Fraction[]> groups, SplittableRandom random) {
    if (groups.isEmpty()) {
      return 1;
    }
    double numerators = 0;
    double denominators = 0;
    for (Fraction[] group : groups) {
      for (int i = 0; i < group.length; i++) {
        Fraction f = random == null ? group[i] : group[random.nextInt(group.length)];
        numerators += f.numerator();
        denominators += f.denominator();
      }
    }
    return numerators / denominators;
  }

  /** Linear interpolation between the closest ranks of sorted values. */
  static double quantile(double[] sorted, double p) {
    double rank = p * (sorted.length - 1);
    int below = (int) Math.floor(rank);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
  }

  /**
   * Geometric mean of positive ratios with the Student t interval of the mean of their logs,
   * taken back by exp; no bounds for fewer than two ratios.
   */
  static Interval geometricMean(List<Double> ratios) {
    Interval meanLog = Interval.ofMean(ratios.stream().mapToDouble(Math::log).toArray());
    return new Interval(Math.exp(meanLog.estimate()), Math.exp(meanLog.low()),
        Math.exp(meanLog.high()), meanLog.n());
  }

  /** Mean of the items' values weighted by their weights, leaving out NaN values (NaN if all). */
  static <T> double weightedMean(Collection<T> items, ToDoubleFunction<T> value,
      ToDoubleFunction<T> weight) {
    double sum = 0;
    double total = 0;
    for (T item : items) {
      double v = value.applyAsDouble(item);
      if (!Double.isNaN(v)) {
        sum += v * weight.applyAsDouble(item);
        total += weight.applyAsDouble(item);
      }
    }
    return total == 0 ? Double.NaN : sum / total;
  }
}
