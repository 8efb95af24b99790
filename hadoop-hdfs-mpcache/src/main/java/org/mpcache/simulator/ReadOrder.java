package org.mpcache.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The order in which the simulator reads a job's blocks. A client reading a file reads them in
 * file order; a running job's maps ask for them in the order they start, which the simulator
 * models as a shuffle (docs/policies.md, "Order within a job").
 */
public enum ReadOrder {
  /** Block 0, 1, 2, ... of the data set. */
  FILE,
  /**
   * A permutation per job, drawn from the trace's seed and the job's index: every policy run on
   * the trace sees the same order.
   */
  SHUFFLED;

  /** The name the simulator's {@code --read-order} takes. */
  public String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The order of the option's value, or an exception naming the values it takes. */
  public static ReadOrder of(String option) {
    for (ReadOrder order : values()) {
      if (order.option().equals(option)) {
        return order;
      }
    }
    throw new IllegalArgumentException("--read-order " + option + ": expected one of "
        + Arrays.stream(values()).map(ReadOrder::option).toList());
  }

  /** The indexes of the job's blocks, in the order they are read. */
  int[] indexes(int blocks, long traceSeed, long jobIndex) {
    int[] order = new int[blocks];
    Arrays.setAll(order, i -> i);
    if (this == SHUFFLED) {
      SplittableRandom random = new SplittableRandom(traceSeed * 0x9E3779B97F4A7C15L + jobIndex);
      for (int i = blocks - 1; i > 0; i--) { // Fisher-Yates
        int j = random.nextInt(i + 1);
        int kept = order[i];
        order[i] = order[j];
        order[j] = kept;
      }
    }
    return order;
  }
}
