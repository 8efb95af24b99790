package org.mpcache.simulator;

/**
 * Equation (3) of the mpCache paper: the scale {@code k} of a job's input, drawn from a Zipf law
 * over {@code 1..maxK} with parameter {@code s} (larger {@code s}: more small inputs).
 */
public final class ZipfScale {
  private final double[] cdf;

  public ZipfScale(int maxK, double s) {
    if (maxK < 1 || s < 0) {
      throw new IllegalArgumentException("need maxK >= 1 and s >= 0, got " + maxK + ", " + s);
    }
    cdf = new double[maxK];
    double norm = 0;
    for (int k = 1; k <= maxK; k++) {
      norm += 1 / Math.pow(k, s);
    }
    double cumulative = 0;
    for (int k = 1; k <= maxK; k++) {
      cumulative += 1 / Math.pow(k, s) / norm;
      cdf[k - 1] = cumulative;
    }
  }

  /** The {@code k} whose cumulative probability first reaches {@code u} (uniform in [0, 1)). */
  public int draw(double u) {
    int k = 1;
    while (k < cdf.length && cdf[k - 1] < u) {
      k++;
    }
    return k;
  }
}
