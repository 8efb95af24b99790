package org.mpcache.slave.inputcache;

import org.mpcache.slave.masterlink.MasterArbiter;

/** Reaches into a slave's master link from tests in other packages. */
public final class SlaveTestUtils {
  private SlaveTestUtils() {
  }

  /** Runs one heartbeat (or registration attempt) of a slave that has a master configured. */
  public static void heartbeat(InputCache cache) {
    ((MasterArbiter) ((SsdInputCache) cache).arbiter()).beat();
  }
}
