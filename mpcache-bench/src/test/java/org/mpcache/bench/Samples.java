package org.mpcache.bench;

import java.util.Arrays;

/** A benchmark's measurements of one kind, kept whole, for exact percentiles. */
final class Samples {
  private long[] values = new long[64];
  private int count;

  void add(long value) {
    if (count == values.length) {
      values = Arrays.copyOf(values, 2 * count);
    }
    values[count++] = value;
  }

  void addAll(Samples other) {
    for (int i = 0; i < other.count; i++) {
      add(other.values[i]);
    }
  }

  int count() {
    return count;
  }

  /** The {@code p}-th percentile (0 < p <= 100) by the nearest rank; 0 without samples. */
  long percentile(double p) {
    if (count == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(values, count);
    Arrays.sort(sorted);
    return sorted[(int) Math.max(0, Math.ceil(p / 100 * count) - 1)];
  }

  long max() {
    return percentile(100);
  }
}
