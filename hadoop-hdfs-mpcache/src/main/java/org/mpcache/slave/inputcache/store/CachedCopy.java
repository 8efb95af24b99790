package org.mpcache.slave.inputcache.store;

import java.nio.file.Path;

import org.mpcache.slave.inputcache.BlockKey;
import org.mpcache.slave.inputcache.LiveReplica;

/**
 * A block's copy on the SSD: data and checksum files, and the identity (generation stamp,
 * length) it was made from. It may only be served while the live replica still has both. Its
 * files never change once committed (a copy of other bytes has another name or none), so a
 * reader holding them never sees bytes of another replica.
 */
public final class CachedCopy {
  /** {@link #verifiedAt()} of a copy whose checksums have not been matched since it was found. */
  public static final long NEVER = Long.MIN_VALUE;

  private final BlockKey key;
  private final long generationStamp;
  private final long length;
  private final long metaLength;
  private final CacheDir dir;
  private final Path dataFile;
  private final Path metaFile;
  /** When the whole copy last matched its checksums (monotonic ms), or {@link #NEVER}. */
  private volatile long verifiedAt;

  CachedCopy(BlockKey key, long generationStamp, long length, long metaLength, CacheDir dir,
      Path dataFile, Path metaFile, long verifiedAt) {
    this.key = key;
    this.generationStamp = generationStamp;
    this.length = length;
    this.metaLength = metaLength;
    this.dir = dir;
    this.dataFile = dataFile;
    this.metaFile = metaFile;
    this.verifiedAt = verifiedAt;
  }

  public BlockKey key() {
    return key;
  }

  public long generationStamp() {
    return generationStamp;
  }

  public long length() {
    return length;
  }

  public long metaLength() {
    return metaLength;
  }

  /** Bytes the copy takes on the SSD. */
  public long bytes() {
    return length + metaLength;
  }

  public CacheDir dir() {
    return dir;
  }

  public Path dataFile() {
    return dataFile;
  }

  public Path metaFile() {
    return metaFile;
  }

  public long verifiedAt() {
    return verifiedAt;
  }

  /**
   * True when the copy matched its checksums at most {@code maxAgeMillis} before {@code now};
   * never for 0 (every use verifies).
   */
  public boolean verifiedWithin(long now, long maxAgeMillis) {
    return maxAgeMillis > 0 && verifiedAt != NEVER && now - verifiedAt <= maxAgeMillis;
  }

  public void markVerified(long now) {
    verifiedAt = now;
  }

  /** True when the copy was made from exactly this replica. */
  public boolean matches(LiveReplica replica) {
    return replica != null && replica.generationStamp() == generationStamp
        && replica.length() == length;
  }

  @Override
  public String toString() {
    return "blk_" + key.blockId() + "_" + generationStamp + " (" + length + " bytes) in " + dir;
  }
}
