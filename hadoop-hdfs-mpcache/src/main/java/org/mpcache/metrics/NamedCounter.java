package org.mpcache.metrics;

import org.apache.hadoop.util.StringUtils;

/** A counter named by an enum constant, with the description its metric carries. */
public interface NamedCounter {
  /** The constant's name, as {@link Enum#name()} gives it. */
  String name();

  String description();

  /** The metric name: BYTES_FROM_SSD becomes BytesFromSsd. */
  default String metricName() {
    return StringUtils.camelize(name());
  }
}
