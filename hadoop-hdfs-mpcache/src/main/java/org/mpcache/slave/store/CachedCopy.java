package org.mpcache.slave.store;

import java.nio.file.Path;

import org.mpcache.slave.BlockKey;
import org.mpcache.slave.LiveReplica;

/**
 * A block's copy on the SSD: data and checksum files, and the identity (generation stamp,
 * length) it was made from. It may only be served while the live replica still has both.
 */
public final class CachedCopy {
  private final BlockKey key;
  private final long generationStamp;
  private final long length;
  private final long metaLength;
  private final CacheDir dir;
  private final Path dataFile;
  private final Path metaFile;
  /** Checksums re-read and matched since this copy was made or loaded. */
  private volatile boolean verified;

  CachedCopy(BlockKey key, long generationStamp, long length, long metaLength, CacheDir dir,
      Path dataFile, Path metaFile, boolean verified) {
    this.key = key;
    this.generationStamp = generationStamp;
    this.length = length;
    this.metaLength = metaLength;
    this.dir = dir;
    this.dataFile = dataFile;
    this.metaFile = metaFile;
    this.verified = verified;
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

  public boolean verified() {
    return verified;
  }

  public void markVerified() {
    verified = true;
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
