package org.mpcache.master.namespace;

import java.nio.charset.StandardCharsets;

/**
 * What an admin set on a data set's path (docs/operations.md, "Steering the cache"), kept in the
 * namespace as extended attributes in the {@code trusted.} namespace, which only HDFS superusers
 * read or write: it survives NameNode restarts and failovers with the path, and goes with it when
 * it is renamed or deleted.
 *
 * @param pinned the data set is never evicted ({@value #PIN_XATTR}, any value)
 * @param ttlMillis a data set unread this long leaves the cache; 0 for none ({@value #TTL_XATTR},
 *     the milliseconds in decimal)
 */
public record DataSetControl(boolean pinned, long ttlMillis) {
  public static final DataSetControl NONE = new DataSetControl(false, 0);
  public static final String PIN_XATTR = "trusted.mpcache.pin";
  public static final String TTL_XATTR = "trusted.mpcache.ttl";
  /** The value the master writes into {@value #PIN_XATTR}. */
  public static final byte[] PINNED = "pinned".getBytes(StandardCharsets.UTF_8);

  /**
   * The control read from the two attributes' values (null when absent). A TTL that is not a
   * positive number of milliseconds (written by hand) counts as none.
   */
  public static DataSetControl of(byte[] pin, byte[] ttl) {
    long ttlMillis = 0;
    if (ttl != null) {
      try {
        ttlMillis = Math.max(0, Long.parseLong(new String(ttl, StandardCharsets.UTF_8).trim()));
      } catch (NumberFormatException e) {
        ttlMillis = 0;
      }
    }
    return pin == null && ttlMillis == 0 ? NONE : new DataSetControl(pin != null, ttlMillis);
  }

  /** The value of {@value #TTL_XATTR} for {@code ttlMillis}. */
  public static byte[] ttlValue(long ttlMillis) {
    return Long.toString(ttlMillis).getBytes(StandardCharsets.UTF_8);
  }
}
