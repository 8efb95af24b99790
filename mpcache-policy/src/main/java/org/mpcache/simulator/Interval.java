package org.mpcache.simulator;

import java.util.Arrays;
import java.util.Locale;

import org.apache.commons.math3.distribution.TDistribution;

/** A sample's mean with its 95 % confidence interval (Student's t), for benchmark reports. */
public record Interval(double mean, double low, double high, int samples) {
  /** The values' mean and interval; the interval's ends are NaN under two values. */
  public static Interval of(double[] values) {
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

  /**
   * {@code format} applied to the mean, then to the interval's ends in parentheses (the mean
   * alone under two values).
   */
  public String format(String format) {
    return Double.isNaN(low) ? String.format(Locale.ROOT, format, mean)
        : String.format(Locale.ROOT, format + " (" + format + " to " + format + ")", mean, low,
            high);
  }
}
