package org.mpcache.master;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.hadoop.ipc.StandbyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache master of a NameNode while it is active and the master is switched on: made fresh
 * when the NameNode becomes active or the master is switched back on, dropped when it stops
 * being active, is switched off, or fails. A call that fails inside the master (an exception, an
 * out-of-memory error in its tables) drops it, so that its memory goes back to the NameNode and
 * no call reads state it left half-updated: the next call starts a new master, which recovers
 * from the slaves' registrations while they decide on their own. The NameNode is never touched:
 * the master's calls run on its own RPC handlers.
 */
final class ActiveMaster {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveMaster.class);

  private final String nameNode;
  private final BooleanSupplier nameNodeActive;
  private final Supplier<CacheMaster> fresh;
  private final MasterCounter.Values counters;
  private CacheMaster master;
  /** Set by {@code hdfs mpcacheadmin -master off}, until {@code -master on} or a restart. */
  private boolean switchedOff;

  /** A call on the master. */
  @FunctionalInterface
  interface Call<T> {
    T on(CacheMaster master) throws IOException;
  }

  /**
   * @param nameNode the NameNode's address, for messages
   * @param fresh makes a new master, which starts recovering
   */
  ActiveMaster(String nameNode, BooleanSupplier nameNodeActive, Supplier<CacheMaster> fresh,
      MasterCounter.Values counters) {
    this.nameNode = nameNode;
    this.nameNodeActive = nameNodeActive;
    this.fresh = fresh;
    this.counters = counters;
  }

  /** The master, made when there is none; refused on a standby or while switched off. */
  synchronized CacheMaster get() throws IOException {
    if (switchedOff) {
      throw new IOException("mpCache master on " + nameNode + " is switched off (hdfs"
          + " mpcacheadmin -master on switches it back on); slaves decide on their own");
    }
    if (!nameNodeActive.getAsBoolean()) {
      if (master != null) {
        LOG.info("mpCache master: the NameNode is no longer active; dropping the master's state");
        master = null;
      }
      throw new StandbyException("mpCache master on " + nameNode + " is not active: its"
          + " NameNode is not the active one");
    }
    if (master == null) {
      master = fresh.get();
    }
    return master;
  }

  /** The master now, or null: for gauges, which must not make one. */
  synchronized CacheMaster current() {
    return master;
  }

  /** Runs {@code call} on the master; a failure inside it drops the master (see above). */
  <T> T run(Call<T> call) throws IOException {
    CacheMaster active = get();
    try {
      return call.on(active);
    } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
      synchronized (this) {
        if (master == active) {
          master = null;
        }
      }
      counters.increment(MasterCounter.MASTER_FAILURES);
      LOG.error("mpCache master failed; dropping its state, a new master recovers it from the"
          + " slaves' registrations", e);
      throw new IOException("mpCache master on " + nameNode + " failed (" + e + "); it starts"
          + " again from the slaves' registrations, which decide on their own meanwhile", e);
    }
  }

  /** Switches the master on or off; returns whether it was on. */
  synchronized boolean switchTo(boolean on) {
    boolean wasOn = !switchedOff;
    switchedOff = !on;
    if (!on) {
      master = null;
    }
    return wasOn;
  }
}
