package org.mpcache.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The order in which the simulator reads a job's blocks. A client reading a file reads them in
 * file order; a running job's maps ask for them in the order they start, which the simulator
 * models as a shuffle (docs/policies.md, "Order within a job").
 */
public enum ReadOrder implements OptionWord {
  /** Block 0, 1, 2, ... of the data set. */
  FILE,
  /**
   * A permutation per job, drawn from the trace's seed and the job's index: every policy run on
   * the trace sees the same order.
   */
  SHUFFLED;

  private static final long SHUFFLE_SALT = 0x5EEDC0DE5EEDC0DEL;
  private static final long JOB_STRIDE = 0xBF58476D1CE4E5B9L;

  /** The name the simulator's {@code --read-order} takes. */
  @Override
  public String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The order of the option's value, or an exception naming the values it takes. */
  public static ReadOrder of(String option) {
    return OptionWord.parse(ReadOrder.class, "--read-order", option);
  }

  /**
   * Which of the job's blocks its {@code k}-th read reads, given {@link #shuffle}'s answer for
   * the job.
   */
  static int blockRead(int[] shuffle, int k) {
    return shuffle == null ? k : shuffle[k];
  }

  /**
   * The job's blocks in the order they are read, or null for file order: the simulator's timed
   * loop then allocates nothing per job.
   */
  int[] shuffle(int blocks, long traceSeed, long jobIndex) {
    if (this == FILE) {
      return null;
    }
    int[] order = new int[blocks];
    Arrays.setAll(order, i -> i);
    // Seeded apart from the trace's own generators (seeded with its seed and seed + 1), and
    // with a stride other than SplittableRandom's: no job shares another's draws.
    long shuffleSeed = new SplittableRandom(traceSeed ^ SHUFFLE_SALT).nextLong();
    SplittableRandom random = new SplittableRandom(shuffleSeed + jobIndex * JOB_STRIDE);
    for (int i = blocks - 1; i > 0; i--) { // Fisher-Yates
      int j = random.nextInt(i + 1);
      int kept = order[i];
      order[i] = order[j];
      order[j] = kept;
    }
    return order;
  }
}
