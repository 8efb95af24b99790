package org.mpcache.conf;

import java.util.List;

/**
 * Which HDFS paths hold job input worth caching: none under an excluded prefix (Hadoop's own
 * staging, job-history and aggregated-log directories, plus the configured ones), and, when
 * include prefixes are given, only paths under one of them. A prefix covers itself and what is
 * under it, whole path components only ({@code /tmp/logs} covers {@code /tmp/logs/a}, not
 * {@code /tmp/logs2}).
 */
public final class CachedPaths {
  /**
   * Hadoop's built-in defaults (the NameNode reads neither mapred-site nor yarn-site): the
   * MapReduce ApplicationMaster's staging dir ({@code yarn.app.mapreduce.am.staging-dir}), under
   * which the job history server's done and intermediate-done dirs also lie by default, and the
   * NodeManagers' aggregated logs ({@code yarn.nodemanager.remote-app-log-dir}).
   */
  public static final List<String> HADOOP_DEFAULT_EXCLUDES =
      List.of("/tmp/hadoop-yarn/staging", "/tmp/logs");

  private final List<String> include;
  private final List<String> exclude;

  /** {@code include} empty means every path not excluded; {@code exclude} adds to Hadoop's. */
  public CachedPaths(List<String> include, List<String> exclude) {
    this.include = include.stream().map(CachedPaths::normalized).toList();
    this.exclude = java.util.stream.Stream.concat(HADOOP_DEFAULT_EXCLUDES.stream(),
        exclude.stream()).map(CachedPaths::normalized).toList();
  }

  /** True when blocks under {@code path} (absolute) may be cached and form data sets. */
  public boolean caches(String path) {
    for (String prefix : exclude) {
      if (under(path, prefix)) {
        return false;
      }
    }
    if (include.isEmpty()) {
      return true;
    }
    for (String prefix : include) {
      if (under(path, prefix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean under(String path, String prefix) {
    return prefix.equals("/") || path.equals(prefix)
        || (path.startsWith(prefix) && path.charAt(prefix.length()) == '/');
  }

  private static String normalized(String prefix) {
    return prefix.length() > 1 && prefix.endsWith("/")
        ? prefix.substring(0, prefix.length() - 1) : prefix;
  }
}
