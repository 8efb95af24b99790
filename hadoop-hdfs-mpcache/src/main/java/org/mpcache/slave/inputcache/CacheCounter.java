package org.mpcache.slave.inputcache;

import org.mpcache.metrics.EnumMetricCounters;
import org.mpcache.metrics.NamedCounter;

/** The slave's monotonic counters, each with the description its metric carries. */
public enum CacheCounter implements NamedCounter {
  HITS("Block reads served from an SSD copy"),
  MISSES("Block reads served from the HDD replica"),
  BYTES_FROM_SSD("Bytes served from SSD copies"),
  BYTES_FROM_HDD("Bytes served from HDD replicas to readers the cache could have served"),
  FILLS("Blocks copied to the SSD and verified"),
  FILLS_ABORTED("Fills given up (partial read, not admitted, SSD error, replica changed,"
      + " checksum mismatch)"),
  FILLS_NOT_ADMITTED("Fills the arbiter did not admit (their provisional copies were deleted)"),
  PROVISIONAL_BYTES_DISCARDED("SSD bytes written for copies the arbiter did not admit"),
  BACKGROUND_FILLS_DROPPED("Background fill requests dropped because the fill queue was full"
      + " or too many fills left by their readers waited"),
  FILLS_LEFT_BY_READERS("Fills whose reader left before the end of the block (it stopped,"
      + " skipped or outran the SSD writer), once settled: the rest copied in the background,"
      + " or given up"),
  EVICTIONS("Copies removed to make room"),
  INVALIDATIONS("Copies removed because their replica was deleted, appended or recovered"),
  CORRUPT_DROPPED("Copies dropped because they failed verification or could not be read"),
  DIR_FAILED_DROPPED("Copies out of use because their SSD dir failed"),
  DIR_CHECKS("Checks of the SSD dirs that answered (passed or failed)"),
  STALE_DISCARDED("Copies discarded because they no longer matched their replica"),
  HANDOUT_VERIFICATIONS("Copies read and verified whole before a short-circuit hand-out"),
  HANDOUTS_UNVERIFIED("Short-circuit hand-outs given the HDD replica because the copy's"
      + " verification did not end within dfs.mpcache.dir.io.timeout (or too many waited)"),
  COPIES_SCRUBBED("Copies read and verified whole by the scrubber"),
  BYTES_SCRUBBED("Bytes of copies read and verified by the scrubber");

  private final String description;

  CacheCounter(String description) {
    this.description = description;
  }

  @Override
  public String description() {
    return description;
  }


  /** One set of counter values. */
  public static final class Values extends EnumMetricCounters<CacheCounter> {
    public Values() {
      super(CacheCounter.class);
    }
  }
}
