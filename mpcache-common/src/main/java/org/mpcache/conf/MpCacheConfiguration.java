package org.mpcache.conf;

import org.apache.hadoop.conf.Configuration;

/**
 * {@value #DEFAULT_RESOURCE}: every mpCache key with its default and description, in the jar.
 * It is read beneath a daemon's configuration, never added with
 * {@code Configuration.addDefaultResource}: that appends it after hdfs-site.xml, which the
 * daemons registered first, so its defaults would override the values operators set there. The
 * code reads each key with the same default ({@code MpCacheConfigKeys}; TestConfigKeyRegistry
 * holds the two together), so the file changes no value a daemon reads; {@code -getconf} shows
 * through it.
 */
public final class MpCacheConfiguration {
  public static final String DEFAULT_RESOURCE = "mpcache-default.xml";

  private MpCacheConfiguration() {
  }

  /** {@code conf} over {@value #DEFAULT_RESOURCE}: a value {@code conf} has wins. */
  public static Configuration withDefaults(Configuration conf) {
    Configuration layered = new Configuration(false);
    layered.addResource(DEFAULT_RESOURCE);
    layered.addResource(conf);
    return layered;
  }
}
