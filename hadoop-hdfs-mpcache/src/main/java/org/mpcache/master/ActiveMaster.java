package org.mpcache.master;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.hadoop.ipc.StandbyException;
import org.mpcache.conf.MasterSettings;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache master of a NameNode while it is active and the master is switched on: made fresh
 * when the NameNode becomes active or the master is switched back on, dropped when it stops
 * being active, is switched off, or fails. A call that fails inside the master (an exception, an
 * error) drops it, so that no call reads state it left half-updated, and answers of calls that
 * were under way on it are discarded: the next call starts a new master, which recovers from the
 * slaves' registrations while they decide on their own. An out-of-memory error also switches the
 * master off: a new master would grow back to the same size in the NameNode's heap, so an admin
 * switches it on again ({@code hdfs mpcacheadmin -master on}) after making room. The master's
 * calls run on its own RPC handlers, never the NameNode's.
 */
public final class ActiveMaster {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveMaster.class);

  private final String nameNode;
  private final BooleanSupplier nameNodeActive;
  private final Supplier<ReplaceArbitrator> fresh;
  private final MasterCounter.Values counters;
  private ReplaceArbitrator master;
  /** Set by {@code hdfs mpcacheadmin -master off}, until {@code -master on} or a restart. */
  private boolean switchedOff;

  /** A call on the master. */
  @FunctionalInterface
  public interface Call<T> {
    T on(ReplaceArbitrator master) throws IOException;
  }

  /**
   * @param nameNode the NameNode's address, for messages
   * @param fresh makes a new master, which starts recovering
   */
  ActiveMaster(String nameNode, BooleanSupplier nameNodeActive, Supplier<ReplaceArbitrator> fresh,
      MasterCounter.Values counters) {
    this.nameNode = nameNode;
    this.nameNodeActive = nameNodeActive;
    this.fresh = fresh;
    this.counters = counters;
  }

  /** The master, made when there is none; refused on a standby or while switched off. */
  synchronized ReplaceArbitrator get() throws IOException {
    if (switchedOff) {
      throw new IOException("mpCache master on " + nameNode + " " + MpCacheMasterProtocol.SWITCHED_OFF + " (hdfs"
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
  public synchronized ReplaceArbitrator current() {
    return master;
  }

  /**
   * Runs {@code call} on the master; a failure inside it drops the master (see above). The
   * caller learns only that the master failed: anyone may call, the log has the cause.
   */
  public <T> T run(Call<T> call) throws IOException {
    ReplaceArbitrator active = get();
    // Holding the master's monitor (its methods take it too) until the failure is recorded:
    // a call waiting for it then sees that the master was dropped.
    synchronized (active) {
      T answer;
      try {
        answer = call.on(active);
      } catch (RuntimeException | Error e) {
        if (dropFailed(active, e)) {
          throw new IOException("mpCache master on " + nameNode + " failed (its log says why);"
              + " a new one recovers from the slaves, which decide on their own meanwhile");
        }
        throw restarted();
      }
      if (current() != active) {
        throw restarted(); // the master failed, or was dropped, while this call waited for it
      }
      return answer;
    }
  }

  /** Drops the master that failed; false when another call's failure already had. */
  private boolean dropFailed(ReplaceArbitrator failed, Throwable cause) {
    boolean outOfMemory = cause instanceof OutOfMemoryError;
    synchronized (this) {
      if (master != failed) {
        return false;
      }
      master = null;
      switchedOff |= outOfMemory;
    }
    counters.increment(MasterCounter.MASTER_FAILURES);
    if (outOfMemory) {
      LOG.error("mpCache master ran out of memory; its state is dropped and the master switched"
          + " off, as a new one would grow as large: give the NameNode more heap or the master"
          + " less to track (docs/policies.md, Scale), then hdfs mpcacheadmin -master on", cause);
    } else {
      LOG.error("mpCache master failed; dropping its state, a new master recovers it from the"
          + " slaves' registrations", cause);
    }
    return true;
  }

  private IOException restarted() {
    return new IOException("mpCache master on " + nameNode + " restarted while answering;"
        + " ask again");
  }

  /**
   * Drops the master, if any: the next call makes a fresh one, built with what a refresh read
   * (its policy, its tables); it recovers from the slaves' registrations.
   */
  synchronized void renew() {
    if (master != null) {
      LOG.info("mpCache master: a refresh changed what the master is built from; a fresh master"
          + " recovers from the slaves' registrations");
      master = null;
    }
  }

  /** Hands the running master, if any, the settings a refresh read. */
  void reconfigure(MasterSettings next) {
    ReplaceArbitrator running = current(); // not under this lock: a call takes the master's first
    if (running != null) {
      running.reconfigure(next);
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
