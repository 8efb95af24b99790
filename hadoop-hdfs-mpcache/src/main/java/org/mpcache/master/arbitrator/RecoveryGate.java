package org.mpcache.master.arbitrator;

import java.util.Set;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a new master's decisions back until it has the whole picture: until the slaves of all
 * live DataNodes have registered, or {@code dfs.mpcache.master.recovery.timeout} has passed.
 */
final class RecoveryGate {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveryGate.class);

  private final long deadline;
  private final long timeoutMillis;
  private boolean recovering = true;

  RecoveryGate(long now, long timeoutMillis) {
    this.deadline = now + timeoutMillis;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * True while recovering, after looking whether recovery ends at {@code now} with
   * {@code registered} slaves; {@code live} is the live DataNodes, or null while the NameNode
   * cannot tell.
   */
  boolean recovering(long now, Set<String> registered, Supplier<Set<String>> live) {
    if (!recovering) {
      return false;
    }
    if (now >= deadline) {
      recovering = false;
      LOG.warn("mpCache master: recovery timeout ({} ms) passed with {} slaves registered;"
          + " deciding from now on", timeoutMillis, registered.size());
      return false;
    }
    Set<String> liveNow = live.get();
    if (liveNow != null && !liveNow.isEmpty() && registered.containsAll(liveNow)) {
      recovering = false;
      LOG.info("mpCache master: all {} live DataNodes' slaves registered; deciding from now on",
          liveNow.size());
    }
    return recovering;
  }
}
