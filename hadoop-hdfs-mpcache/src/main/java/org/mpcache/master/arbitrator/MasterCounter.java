package org.mpcache.master.arbitrator;

import org.mpcache.metrics.EnumMetricCounters;
import org.mpcache.metrics.NamedCounter;

/** The master's monotonic counters, each with the description its metric carries. */
public enum MasterCounter implements NamedCounter {
  ADMISSIONS_ADMITTED("Block copies the master admitted"),
  ADMISSIONS_REFUSED("Block copies the master refused (admission control, or no room)"),
  EVICTIONS_FOR_ROOM("Copies the requesting node deleted to make room for an admitted block"),
  EVICTIONS_OF_DATA_SETS_ELSEWHERE("Copies other nodes deleted because their data set was"
      + " evicted whole (To_Del, handed over in heartbeats)"),
  EVICTIONS_FOR_LOCALIZED_DATA("Copies deleted because the node lent their room to"
      + " intermediate data"),
  EVICTIONS_AFTER_REREGISTRATION("Copies condemned before the node registered again, deleted"
      + " at its next heartbeat"),
  EVICTIONS_BY_ADMIN("Copies deleted because an admin freed their data set (hdfs mpcacheadmin"
      + " -free)"),
  EVICTIONS_BY_TTL("Copies deleted because their data set was unread for longer than its TTL"),
  PINNED_COPIES_REFUSED("Reads of pinned data sets not cached: the node's pinned copies were at"
      + " their limit (dfs.mpcache.master.pin.max-share)"),
  LOAD_BLOCKS_HANDED_OUT("Blocks of admins' loads (hdfs mpcacheadmin -load) handed to slaves to"
      + " copy to their SSD"),
  LOAD_BLOCKS_DROPPED("Blocks of admins' loads a slave did not start copying within"
      + " dfs.mpcache.master.slave.expiry (no finalized replica there, its fill queue full, fills"
      + " off), or whose slave left"),
  DATA_SETS_EVICTED("Data sets evicted whole by the replacement policy"),
  DATA_SETS_FORGOTTEN_OVER_CAP("Data sets forgotten because the master tracked more than"
      + " dfs.mpcache.master.dataset.max-tracked, least recently seen first (none holding copies,"
      + " a pin or a TTL)"),
  DATA_SET_ACCESSES("Data-set accesses the master counted: a new pass of reads over a data set,"
      + " as a job starting to read it makes (docs/policies.md)"),
  SLAVE_CALLS_REFUSED("Slave calls refused: the caller could not be the DataNode it named"
      + " (docs/security.md)"),
  MASTER_FAILURES("Calls that failed inside the master (an exception, out of memory): each"
      + " dropped the master's state, which a new master recovers from the slaves");

  private final String description;

  MasterCounter(String description) {
    this.description = description;
  }

  @Override
  public String description() {
    return description;
  }


  /** One set of counter values. */
  public static final class Values extends EnumMetricCounters<MasterCounter> {
    public Values() {
      super(MasterCounter.class);
    }
  }
}
