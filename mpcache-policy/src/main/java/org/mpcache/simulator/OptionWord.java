package org.mpcache.simulator;

import java.util.Arrays;

/** A choice the simulator's command line names by a word: an enum constant's. */
interface OptionWord {
  /** The word naming this choice. */
  String option();

  /**
   * The constant of {@code type} that {@code word} names, or an exception naming the command-line
   * option {@code flag} and the words it takes.
   */
  static <E extends Enum<E> & OptionWord> E parse(Class<E> type, String flag, String word) {
    E[] choices = type.getEnumConstants();
    for (E choice : choices) {
      if (choice.option().equals(word)) {
        return choice;
      }
    }
    throw new IllegalArgumentException(flag + " " + word + ": expected one of "
        + Arrays.stream(choices).map(OptionWord::option).toList());
  }
}
