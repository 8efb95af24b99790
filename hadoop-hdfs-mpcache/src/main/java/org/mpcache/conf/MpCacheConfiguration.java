package org.mpcache.conf;

import org.apache.hadoop.conf.Configuration;

/**
 * Adds {@value #DEFAULT_RESOURCE}, every mpCache key with its default, to the resources each
 * {@link Configuration} loads, as {@code HdfsConfiguration.init()} adds hdfs-default.xml. Every
 * entry point that reads mpCache keys calls {@link #init()} from a static block.
 */
public final class MpCacheConfiguration {
  public static final String DEFAULT_RESOURCE = "mpcache-default.xml";

  static {
    Configuration.addDefaultResource(DEFAULT_RESOURCE);
  }

  private MpCacheConfiguration() {
  }

  /** Loading this class registers the resource; calling it again does nothing. */
  public static void init() {
  }
}
