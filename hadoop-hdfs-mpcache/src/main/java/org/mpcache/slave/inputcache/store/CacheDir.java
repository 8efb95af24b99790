package org.mpcache.slave.inputcache.store;

import java.io.File;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One SSD directory of {@code dfs.mpcache.dirs}: its share of the capacity (sized when the dir is
 * admitted), what the cache holds in it, its health and its I/O lane. The byte counts are changed
 * only under the lock of the cache's index of copies; the rest is read without it.
 */
public final class CacheDir {
  private final File configured;
  private final Path inputRoot;
  private final Path tmpRoot;
  private volatile long quotaBytes;
  private final SsdLane lane;
  /** Bytes of the copies this dir holds. */
  private long usedBytes;
  /** Bytes of the fills under way into this dir, not yet charged to its quota. */
  private long stagedBytes;
  private volatile String failure;
  /** Takings-in of the copies found on the dir under way (start-up, recovery): no fill goes here. */
  private final AtomicInteger adoptions = new AtomicInteger();
  private volatile long usableBytes = Long.MAX_VALUE;
  /** The id its layout was given when made, once admitted: only that layout is taken back. */
  private volatile String identity;
  /** Whether the cache last stopped cleanly with it (see SsdStore#close), as of its admission. */
  private volatile boolean stoppedCleanly;
  /** Block pools whose copies here were all read and verified since the dir was admitted. */
  private final Set<String> verifiedPools = ConcurrentHashMap.newKeySet();

  CacheDir(File configured, SsdLane lane) {
    this.configured = configured;
    Path base = configured.toPath().resolve(SsdStore.LAYOUT_DIR);
    this.inputRoot = base.resolve("input");
    this.tmpRoot = base.resolve("tmp");
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

  /** The cache's capacity now: the quotas of the dirs in use. */
  public static long capacityOf(List<CacheDir> dirs) {
    return dirs.stream().filter(CacheDir::healthy).mapToLong(CacheDir::quotaBytes).sum();
  }

  void quotaBytes(long bytes) {
    quotaBytes = bytes;
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

  /** The id of the layout the dir was admitted with; null before it first was. */
  public String identity() {
    return identity;
  }

  void identity(String dirId) {
    identity = dirId;
  }

  /**
   * True when the dir was last let go by a clean stop: its copies need no reading before they
   * serve. False after a crash, and for a dir back from a failure.
   */
  public boolean stoppedCleanly() {
    return stoppedCleanly;
  }

  void stoppedCleanly(boolean clean) {
    stoppedCleanly = clean;
    verifiedPools.clear();
  }

  /** Every copy of the block pool in this dir was read and verified (taken in after a crash). */
  public void poolVerified(String blockPoolId) {
    verifiedPools.add(blockPoolId);
  }

  /** True when the copies here can be taken in without reading them at the next start. */
  boolean copiesTrusted(Collection<String> blockPools) {
    return stoppedCleanly || verifiedPools.containsAll(blockPools);
  }

  public boolean healthy() {
    return failure == null;
  }

  /** Healthy and not taking in copies: new fills may go here. */
  public boolean acceptsFills() {
    return failure == null && !adopting();
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

  /** A taking-in of copies begins ({@code true}) or ends ({@code false}). */
  public void adopting(boolean begins) {
    adoptions.addAndGet(begins ? 1 : -1);
  }

  public boolean adopting() {
    return adoptions.get() > 0;
  }

  @Override
  public String toString() {
    return configured.getPath();
  }
}
