package org.mpcache.bench.device;

/**
 * What an emulated device's time was spent on, so a run can say where its HDDs' time went and
 * what a cache could take off them.
 */
public enum IoCause {
  /** A DataNode reading a replica: job input it did not find on SSD, job files, jars. */
  HDFS_READ("HDFS reads"),
  /**
   * A cache reading a replica a second time to copy it: mpCache's background fills (data and
   * checksums) and every fill's checksum re-read, the in-memory cache's loads.
   */
  FILL_READ("cache fill re-reads"),
  /** A DataNode writing a replica: job outputs, staging files, job history. */
  HDFS_WRITE("HDFS writes"),
  /** The mpCache slave's own SSD copies: fills written, hits read, scrubs (never on an HDD). */
  CACHE_COPY("SSD copies"),
  /** Tasks reading intermediate data from local dirs: spills and merge inputs. */
  LOCAL_READ("local reads"),
  /** Tasks writing intermediate data to local dirs: spills, map outputs, shuffled segments. */
  LOCAL_WRITE("local writes"),
  /** The NodeManager's shuffle server reading map outputs for reduces. */
  SHUFFLE_SERVE("shuffle serving");

  private final String label;

  IoCause(String label) {
    this.label = label;
  }

  /** Words for a report's column. */
  public String label() {
    return label;
  }
}
