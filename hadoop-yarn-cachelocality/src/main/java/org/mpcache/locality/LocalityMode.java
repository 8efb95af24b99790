package org.mpcache.locality;

import java.util.Arrays;
import java.util.Locale;

import org.mpcache.conf.MpCacheConfigKeys;

/**
 * How block locations handed to schedulers show the SSD copies ({@value MpCacheConfigKeys#MPCACHE_LOCALITY_MODE_KEY}).
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

  public static final LocalityMode DEFAULT = of(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_DEFAULT);

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
    throw new IllegalArgumentException(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_KEY + " = '" + value + "': choose one of "
        + Arrays.stream(values()).map(LocalityMode::value).toList());
  }
}
