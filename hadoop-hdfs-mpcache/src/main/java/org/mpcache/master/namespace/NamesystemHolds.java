package org.mpcache.master.namespace;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.util.RwLockMode;

/**
 * The master's holds of the NameNode's namesystem read lock, each with a budget of work
 * ({@link #WORK_PER_HOLD} units: a block looked up costs {@link #LOOKUP_WORK}, a directory child
 * visited 1) whatever the namespace looks like: a caller with more to do lets the lock go and
 * takes it again, so that the NameNode's writers wait for one budget of the master's work at most
 * (docs/architecture.md, "Data sets"). Each hold's wall time and the holding thread's CPU time go
 * to a listener, the master's metrics (GC pauses and preemption land in wall time only).
 */
public final class NamesystemHolds {
  /** Units of work a hold does at most: about 500 block lookups, or 10,000 children counted. */
  public static final int WORK_PER_HOLD = 10_000;
  /** A block lookup (block map, inode, path, extended attributes) against a child visited. */
  static final int LOOKUP_WORK = 20;

  /** Hears of each hold once it is let go. */
  @FunctionalInterface
  public interface Listener {
    /** {@code cpuNanos} is negative where the JVM cannot measure a thread's CPU time. */
    void held(long wallNanos, long cpuNanos);
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final FSNamesystem namesystem;
  private final int workPerHold;
  private final Listener listener;
  /** See {@link #heldNanos()}; written by the one thread the master lets in at a time. */
  private volatile long heldNanos;
  /** Holds taken, the work they did in all and the most one did: what the tests bound. */
  private long holds;
  private long work;
  private int mostWork;

  public NamesystemHolds(FSNamesystem namesystem, int workPerHold, Listener listener) {
    if (workPerHold <= LOOKUP_WORK) { // a hold visits a child and looks a block of it up
      throw new IllegalArgumentException("a hold's budget must exceed a lookup's work ("
          + LOOKUP_WORK + "), got " + workPerHold);
    }
    this.namesystem = namesystem;
    this.workPerHold = workPerHold;
    this.listener = listener;
  }

  /** Takes the read lock; the hold lets it go when closed. */
  Hold take(String operation) {
    namesystem.readLock(RwLockMode.GLOBAL);
    return new Hold(operation);
  }

  /** Nanoseconds of wall time the holds took, in all. */
  long heldNanos() {
    return heldNanos;
  }

  long holds() {
    return holds;
  }

  long work() {
    return work;
  }

  int mostWorkInAHold() {
    return mostWork;
  }

  int workPerHold() {
    return workPerHold;
  }

  private static long threadCpuNanos() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
  }

  /** One hold of the read lock and the work done under it. */
  final class Hold implements AutoCloseable {
    private final String operation;
    private final long wallStart = System.nanoTime();
    private final long cpuStart = threadCpuNanos();
    private int work;

    private Hold(String operation) {
      this.operation = operation;
    }

    /** True while {@code units} more work fit the budget; a fresh hold always does some. */
    boolean allows(int units) {
      return work == 0 || work + units <= workPerHold;
    }

    /** Work this hold may still do. */
    int left() {
      return Math.max(0, workPerHold - work);
    }

    void spend(int units) {
      work += units;
    }

    @Override
    public void close() {
      long wall = System.nanoTime() - wallStart;
      long cpuEnd = threadCpuNanos();
      namesystem.readUnlock(RwLockMode.GLOBAL, operation);
      heldNanos += wall;
      holds++;
      NamesystemHolds.this.work += work;
      mostWork = Math.max(mostWork, work);
      listener.held(wall, cpuStart < 0 || cpuEnd < 0 ? -1 : cpuEnd - cpuStart);
    }
  }
}
