package org.mpcache.metrics;

import java.util.concurrent.atomic.LongAdder;

/** Monotonic counters named by the constants of an enum; thread-safe. */
public class EnumCounters<E extends Enum<E>> {
  private final LongAdder[] adders;

  public EnumCounters(Class<E> counters) {
    adders = new LongAdder[counters.getEnumConstants().length];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
  }

  public void add(E counter, long delta) {
    adders[counter.ordinal()].add(delta);
  }

  public void increment(E counter) {
    add(counter, 1);
  }

  public long get(E counter) {
    return adders[counter.ordinal()].sum();
  }

  /** A counter's metric name: BYTES_FROM_SSD becomes BytesFromSsd. */
  public static String metricName(Enum<?> counter) {
    StringBuilder name = new StringBuilder();
    for (String word : counter.name().split("_")) {
      name.append(word.charAt(0)).append(word.substring(1).toLowerCase());
    }
    return name.toString();
  }
}
