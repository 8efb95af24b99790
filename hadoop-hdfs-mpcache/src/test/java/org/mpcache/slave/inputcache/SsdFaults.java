package org.mpcache.slave.inputcache;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.hdfs.server.datanode.FaultInjectorFileIoEvents;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.mpcache.slave.inputcache.store.SsdLane;

/**
 * Faults in the cache's SSD calls, injected through the DataNode's {@link FileIoProvider} event
 * hook, which every SSD call of the cache goes through: an operation can fail, hang until
 * {@link #release()}, or find the device full. The DataNode's own (HDD) calls are never touched:
 * they name their volume, the cache's name none and run under {@link SsdLane#track}. It also
 * counts the bytes the cache reads from the SSD, and the files it forces to it.
 *
 * <p>The provider fixes its hook at construction, so {@link #install} sets the field (a test
 * reach into Hadoop: it fails loudly if the field goes).
 */
public final class SsdFaults extends FaultInjectorFileIoEvents {
  private static final String TRACK = SsdLane.class.getName();

  private enum Fault { NONE, FAIL, HANG, FULL }

  private volatile Fault fault = Fault.NONE;
  private volatile Set<OPERATION> operations = EnumSet.noneOf(OPERATION.class);
  private volatile CountDownLatch released = new CountDownLatch(0);
  private final AtomicLong hanging = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong syncs = new AtomicLong();

  private SsdFaults() {
    super(null);
  }

  /** Puts a new hook into {@code io} and returns it. */
  public static SsdFaults install(FileIoProvider io) throws ReflectiveOperationException {
    SsdFaults faults = new SsdFaults();
    Field hook = FileIoProvider.class.getDeclaredField("faultInjectorEventHook");
    hook.setAccessible(true);
    hook.set(io, faults);
    return faults;
  }

  /** SSD calls of these operations throw an I/O error. */
  public void fail(OPERATION... ops) {
    set(Fault.FAIL, ops);
  }

  /** SSD calls of these operations block until {@link #release()}. */
  public void hang(OPERATION... ops) {
    released = new CountDownLatch(1);
    set(Fault.HANG, ops);
  }

  /** SSD writes fail as on a full device. */
  public void full() {
    set(Fault.FULL, OPERATION.WRITE);
  }

  /** No more faults; hung calls return. */
  public void release() {
    fault = Fault.NONE;
    released.countDown();
  }

  /** SSD calls blocked right now. */
  public long hanging() {
    return hanging.get();
  }

  /** Files and dirs the cache forced to the SSD so far. */
  public long syncs() {
    return syncs.get();
  }

  /** Bytes the cache asked the SSD to read so far. */
  public long bytesRead() {
    return bytesRead.get();
  }

  private void set(Fault kind, OPERATION... ops) {
    operations = ops.length == 0 ? EnumSet.noneOf(OPERATION.class) : EnumSet.of(ops[0], ops);
    fault = kind;
  }

  @Override
  public void beforeMetadataOp(FsVolumeSpi volume, OPERATION op) {
    before(volume, op);
  }

  @Override
  public void beforeFileIo(FsVolumeSpi volume, OPERATION op, long len) {
    if (volume == null && op == OPERATION.READ && isSsdCall()) {
      bytesRead.addAndGet(len);
    }
    if (volume == null && op == OPERATION.SYNC && isSsdCall()) {
      syncs.incrementAndGet();
    }
    before(volume, op);
  }

  private void before(FsVolumeSpi volume, OPERATION op) {
    Fault now = fault;
    if (now == Fault.NONE || volume != null || !operations.contains(op) || !isSsdCall()) {
      return;
    }
    switch (now) {
      case FAIL -> sneakyThrow(new IOException("injected SSD failure of " + op));
      case FULL -> sneakyThrow(new IOException("No space left on device"));
      case HANG -> {
        hanging.incrementAndGet();
        try {
          released.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          hanging.decrementAndGet();
        }
      }
      default -> {
      }
    }
  }

  private static boolean isSsdCall() {
    return StackWalker.getInstance().walk(frames -> frames
        .anyMatch(frame -> frame.getClassName().equals(TRACK)));
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
    throw (E) e;
  }
}
