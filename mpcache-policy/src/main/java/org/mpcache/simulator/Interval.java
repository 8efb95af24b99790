package org.mpcache.simulator;

import java.util.Arrays;
import java.util.Locale;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * An estimate from {@code n} observations with its 95 % confidence interval, for benchmark
 * reports; the ends are NaN where there are too few observations for one.
 */
public record Interval(double estimate, double low, double high, int n) {
  /** The values' mean with its Student t interval; no ends under two values. */
  public static Interval ofMean(double[] values) {
    double mean = Arrays.stream(values).average().orElse(Double.NaN);
    if (values.length < 2) {
      return new Interval(mean, Double.NaN, Double.NaN, values.length);
    }
    double variance = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum()
        / (values.length - 1);
    double half = new TDistribution(values.length - 1).inverseCumulativeProbability(0.975)
        * Math.sqrt(variance / values.length);
    return new Interval(mean, mean - half, mean + half, values.length);
  }

  public boolean hasBounds() {
    return !Double.isNaN(low) && !Double.isNaN(high);
  }

  public double halfWidth() {
    return (high - low) / 2;
  }

  /** Whether the interval's half-width is at most {@code share} of the estimate. */
  public boolean within(double share) {
    return halfWidth() <= share * estimate;
  }

  /**
   * {@code format} applied to the estimate, then to the interval's ends in parentheses (the
   * estimate alone without ends).
   */
  public String format(String format) {
    return hasBounds() ? String.format(Locale.ROOT,
        format + " (" + format + " to " + format + ")", estimate, low, high)
        : String.format(Locale.ROOT, format, estimate);
  }
}
