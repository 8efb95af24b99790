package org.mpcache.conf;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.hadoop.conf.Configuration;

/**
 * The mpCache keys: the {@code *_KEY} constants of {@link MpCacheConfigKeys}, found by reflection
 * so that a key declared there is known to {@code hdfs mpcacheadmin -getconf} and to the tests
 * that hold mpcache-default.xml and the docs to it, with nothing else to update.
 */
public final class MpCacheKeyRegistry {
  private static final SortedSet<String> KEYS = declaredKeys();

  private MpCacheKeyRegistry() {
  }

  /** Every key in use, sorted. */
  public static SortedSet<String> keys() {
    return KEYS;
  }

  /** A key in use, or a per-NameNode master address ({@link MasterAddresses}). */
  public static boolean isKnown(String key) {
    return KEYS.contains(key)
        || key.startsWith(MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY + ".");
  }

  /** Each key in use with its value in {@code conf} (empty when unset), sorted by key. */
  public static SortedMap<String, String> effectiveValues(Configuration conf) {
    SortedMap<String, String> values = new TreeMap<>();
    for (String key : KEYS) {
      values.put(key, conf.get(key, ""));
    }
    return values;
  }

  private static SortedSet<String> declaredKeys() {
    SortedSet<String> keys = new TreeSet<>();
    for (Field field : MpCacheConfigKeys.class.getFields()) {
      if (field.getName().endsWith("_KEY") && Modifier.isStatic(field.getModifiers())) {
        try {
          keys.add((String) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(field + " is public", e);
        }
      }
    }
    return Collections.unmodifiableSortedSet(keys);
  }
}
