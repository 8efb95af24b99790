package org.mpcache.simulator;

import java.util.ArrayList;
import java.util.List;

/** Numbers and ascending ranges, comma-separated ({@code 1-5,11}), as the tools write them. */
final class NumberRanges {
  private NumberRanges() {
  }

  /**
   * The numbers {@code spec} names, in its order.
   *
   * @throws NumberFormatException where a part is no number or range, or a range descends
   */
  static List<Long> expand(String spec) {
    List<Long> numbers = new ArrayList<>();
    for (String part : spec.split(",")) {
      String[] range = part.trim().split("-", -1);
      long from = Long.parseLong(range[0].trim());
      long to = range.length > 1 ? Long.parseLong(range[1].trim()) : from;
      if (range.length > 2 || to < from) {
        throw new NumberFormatException("'" + part + "' is no number or ascending range");
      }
      for (long number = from; number <= to; number++) {
        numbers.add(number);
      }
    }
    return numbers;
  }
}
