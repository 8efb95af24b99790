package org.mpcache.master.status;

import java.io.IOException;
import java.util.function.LongSupplier;

import org.mpcache.master.ActiveMaster;
import org.mpcache.master.arbitrator.ReplaceArbitrator;

/**
 * The status page's picture of the master, built at most once a second however many viewers
 * load the page (it reloads itself): building one walks every copy the master counts, under
 * its lock. A picture of a master that has since been dropped or renewed is never shown.
 */
public final class StatusPictures {
  static final long REUSE_MILLIS = 1_000;

  private final LongSupplier clock;
  private ReplaceArbitrator pictured;
  private MasterStatus picture;
  private long takenAt;

  public StatusPictures(LongSupplier clock) {
    this.clock = clock;
  }

  /**
   * The picture of {@code master}'s current master, taken anew when older than a second.
   *
   * @throws IOException when there is no master to picture (a standby, switched off)
   */
  public synchronized MasterStatus get(ActiveMaster master) throws IOException {
    long now = clock.getAsLong();
    ReplaceArbitrator current = master.current();
    if (picture == null || current != pictured || now - takenAt >= REUSE_MILLIS) {
      picture = master.run(active -> {
        pictured = active;
        return MasterStatus.of(active.report(), active.recentEvictions());
      });
      takenAt = now;
    }
    return picture;
  }
}
