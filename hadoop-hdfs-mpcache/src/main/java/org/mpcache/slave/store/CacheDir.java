package org.mpcache.slave.store;

import java.io.File;
import java.nio.file.Path;

/** One SSD directory of {@code dfs.mpcache.dirs}: its share of the capacity and its health. */
public final class CacheDir {
  private final File configured;
  private final Path inputRoot;
  private final Path tmpRoot;
  private final long quotaBytes;
  private long usedBytes;
  private volatile String failure;

  CacheDir(File configured, long quotaBytes) {
    this.configured = configured;
    Path base = configured.toPath().resolve(SsdStore.LAYOUT_DIR);
    this.inputRoot = base.resolve("input");
    this.tmpRoot = base.resolve("tmp");
    this.quotaBytes = quotaBytes;
  }

  public File configured() {
    return configured;
  }

  Path inputRoot() {
    return inputRoot;
  }

  Path tmpRoot() {
    return tmpRoot;
  }

  public long quotaBytes() {
    return quotaBytes;
  }

  public long usedBytes() {
    return usedBytes;
  }

  void addUsed(long delta) {
    usedBytes += delta;
  }

  public long freeBytes() {
    return Math.max(0, quotaBytes - usedBytes);
  }

  public boolean healthy() {
    return failure == null;
  }

  /** Why the directory is out of use, or null while it is healthy. */
  public String failure() {
    return failure;
  }

  void fail(String reason) {
    failure = reason;
  }

  @Override
  public String toString() {
    return configured.getPath();
  }
}
