package org.mpcache.metrics;

import java.util.EnumMap;
import java.util.Map;

import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/**
 * Monotonic counters named by the constants of an enum, held as metrics2 counters of a registry
 * of their own; thread-safe.
 */
public class EnumMetricCounters<E extends Enum<E> & NamedCounter> {
  private final MetricsRegistry registry;
  private final Map<E, MutableCounterLong> counters;

  public EnumMetricCounters(Class<E> type) {
    registry = new MetricsRegistry(type.getSimpleName());
    counters = new EnumMap<>(type);
    for (E counter : type.getEnumConstants()) {
      counters.put(counter, registry.newCounter(counter.metricName(), counter.description(), 0L));
    }
  }

  public void add(E counter, long delta) {
    counters.get(counter).incr(delta);
  }

  public void increment(E counter) {
    counters.get(counter).incr();
  }

  public long get(E counter) {
    return counters.get(counter).value();
  }

  /** Adds every counter, changed since the last snapshot or not, to a metrics record. */
  public void snapshot(MetricsRecordBuilder record) {
    registry.snapshot(record, true);
  }
}
