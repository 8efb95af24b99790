package org.mpcache.locality;

import java.util.Arrays;
import java.util.Locale;

/**
 * How block locations handed to schedulers show the SSD copies ({@code mpcache.locality.mode}).
 * Stock MapReduce turns a split's hosts into a set and never reads
 * {@code BlockLocation.getCachedHosts()}, so only {@link #CACHE_ONLY} moves its map tasks.
 */
public enum LocalityMode {
  /** Hosts unchanged; the SSD holders are the cached hosts. */
  ANNOTATE,
  /** The SSD holders first among the hosts, and the cached hosts. */
  CACHE_FIRST,
  /** Only the SSD holders as hosts when there are any (else all replicas), and cached hosts. */
  CACHE_ONLY;

  public static final String KEY = "mpcache.locality.mode";
  public static final LocalityMode DEFAULT = CACHE_ONLY;

  /** The key's value as written in configuration files: "cache-only", ... */
  public String value() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The mode a configuration value names.
   *
   * @throws IllegalArgumentException naming the key and the valid values
   */
  public static LocalityMode of(String value) {
    for (LocalityMode mode : values()) {
      if (mode.value().equalsIgnoreCase(value.trim())) {
        return mode;
      }
    }
    throw new IllegalArgumentException(KEY + " = '" + value + "': choose one of "
        + Arrays.stream(values()).map(LocalityMode::value).toList());
  }
}
