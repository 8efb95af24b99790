package org.mpcache.slave.inputcache;

/**
 * How the slave's fill threads are named: in thread dumps, and for the benchmark's device
 * emulation, which charges their HDD reads as the cache's own (docs/benchmarks.md).
 */
public final class FillThreads {
  /** Background fills, which copy a block by reading its HDD replica a second time. */
  public static final String BACKGROUND = "mpcache-fill-";
  /** Fill writers, which write a fill's bytes to the SSD and re-read the replica's checksums. */
  public static final String WRITER = "mpcache-ssd-writer-";

  private FillThreads() {
  }
}
