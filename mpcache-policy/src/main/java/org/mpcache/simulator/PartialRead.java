package org.mpcache.simulator;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Which blocks of a data set a job reads when it reads fewer than the data set holds
 * (docs/policies.md, "Real workloads"): where a table's partitions or a directory's files lie
 * in block order, its oldest, its newest or any of them.
 */
public enum PartialRead implements OptionWord {
  /** The first blocks: the oldest files of a directory written in order. */
  PREFIX("prefix"),
  /** The last blocks: the newest partitions of a table written in order. */
  NEWEST("newest"),
  /** Blocks drawn at random, each job its own: partitions a query's predicate picks. */
  RANDOM("random");

  private final String option;

  PartialRead(String option) {
    this.option = option;
  }

  @Override
  public String option() {
    return option;
  }

  public static PartialRead of(String option) {
    return OptionWord.parse(PartialRead.class, "--part", option);
  }

  /**
   * The ascending indexes of the {@code reads} blocks a job reads of a data set of
   * {@code blocks}; {@code random} draws them where the choice is random.
   */
  public int[] blocks(int blocks, int reads, SplittableRandom random) {
    if (reads <= 0 || reads > blocks) {
      throw new IllegalArgumentException(reads + " blocks read of a data set of " + blocks);
    }
    int[] part = new int[reads];
    switch (this) {
      case PREFIX -> Arrays.setAll(part, k -> k);
      case NEWEST -> Arrays.setAll(part, k -> blocks - reads + k);
      case RANDOM -> {
        // Selection sampling (Knuth's Algorithm S): each block in turn with the chance that
        // leaves every subset of the size equally likely, ascending as drawn.
        int chosen = 0;
        for (int index = 0; chosen < reads; index++) {
          if (random.nextInt(blocks - index) < reads - chosen) {
            part[chosen++] = index;
          }
        }
      }
    }
    return part;
  }
}
