package org.mpcache.slave.store;

import java.io.File;
import java.nio.file.Path;

/**
 * One SSD directory of {@code dfs.mpcache.dirs}: its share of the capacity, what the cache holds
 * in it, its health and its I/O lane. The byte counts are changed only under the lock of the
 * cache's index of copies; health and the device's usable space are read without it.
 */
public final class CacheDir {
  private final File configured;
  private final Path inputRoot;
  private final Path tmpRoot;
  private final long quotaBytes;
  private final SsdLane lane;
  /** Bytes of the copies this dir holds. */
  private long usedBytes;
  /** Bytes of the fills under way into this dir, not yet charged to its quota. */
  private long stagedBytes;
  private volatile String failure;
  /** Copies found on the dir are being taken in (start-up or recovery): no fill goes here. */
  private volatile boolean adopting;
  private volatile long usableBytes = Long.MAX_VALUE;

  CacheDir(File configured, long quotaBytes, SsdLane lane) {
    this.configured = configured;
    Path base = configured.toPath().resolve(SsdStore.LAYOUT_DIR);
    this.inputRoot = base.resolve("input");
    this.tmpRoot = base.resolve("tmp");
    this.quotaBytes = quotaBytes;
    this.lane = lane;
  }

  public File configured() {
    return configured;
  }

  Path layoutRoot() {
    return inputRoot.getParent();
  }

  Path inputRoot() {
    return inputRoot;
  }

  Path tmpRoot() {
    return tmpRoot;
  }

  public SsdLane lane() {
    return lane;
  }

  public long quotaBytes() {
    return quotaBytes;
  }

  public long usedBytes() {
    return usedBytes;
  }

  public void addUsed(long delta) {
    usedBytes += delta;
  }

  public long stagedBytes() {
    return stagedBytes;
  }

  public void addStaged(long delta) {
    stagedBytes += delta;
  }

  public long freeBytes() {
    return Math.max(0, quotaBytes - usedBytes);
  }

  /** What the device had usable at the last check (Long.MAX_VALUE before the first). */
  public long usableBytes() {
    return usableBytes;
  }

  public void usableBytes(long bytes) {
    usableBytes = bytes;
  }

  public boolean healthy() {
    return failure == null;
  }

  /** Healthy and not taking in copies: new fills may go here. */
  public boolean acceptsFills() {
    return failure == null && !adopting;
  }

  /** Why the directory is out of use, or null while it is healthy. */
  public String failure() {
    return failure;
  }

  public void fail(String reason) {
    failure = reason;
  }

  public void recovered() {
    failure = null;
  }

  public void adopting(boolean underWay) {
    adopting = underWay;
  }

  public boolean adopting() {
    return adopting;
  }

  @Override
  public String toString() {
    return configured.getPath();
  }
}
