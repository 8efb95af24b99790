package org.mpcache.bench.device;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One emulated device: every transfer queues on the device's shared timeline and the caller
 * waits until the device would have completed it, whatever the real disk or page cache did.
 */
public final class Device {
  private final String name;
  private final DeviceProfile profile;
  private final SharedDeviceState state;
  private final BooleanSupplier enabled;

  Device(String name, DeviceProfile profile, SharedDeviceState state, BooleanSupplier enabled) {
    this.name = name;
    this.profile = profile;
    this.state = state;
    this.enabled = enabled;
  }

  public String name() {
    return name;
  }

  /**
   * Moves {@code bytes} for {@code stream} on this device for {@code cause}, waiting as long as
   * the device would.
   */
  public void transfer(long stream, Extent extent, long bytes, IoCause cause) {
    if (bytes <= 0 || !enabled.getAsBoolean()) {
      return;
    }
    boolean startsExtent = extent.consume(bytes, profile.extentBytes());
    long now = System.nanoTime();
    long done = state.update(
        s -> DeviceQueue.serve(profile, s, now, stream, bytes, startsExtent), cause).busyUntil();
    for (long wait = done - System.nanoTime(); wait > 0; wait = done - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  /** A stream of small reads or writes on this device for {@code cause}, charged in batches. */
  public Meter meter(IoCause cause) {
    return new Meter(cause);
  }

  /**
   * Charges one stream's bytes in batches of {@value #BATCH_BYTES}: callers reading a byte at a
   * time (MapReduce's merge reads varints so) would otherwise pay a queue update and a clock read
   * per byte, CPU the emulated device does not cost. The device time charged is the same.
   */
  public final class Meter {
    private static final long BATCH_BYTES = 64 << 10;
    private final long stream = EmulatedDevices.newStream();
    private final Extent extent = new Extent();
    private final IoCause cause;
    private long pending;

    private Meter(IoCause cause) {
      this.cause = cause;
    }

    public void charge(long bytes) {
      pending += Math.max(bytes, 0);
      if (pending >= BATCH_BYTES) {
        flush();
      }
    }

    /** Charges what is pending (at the end of the stream). */
    public void flush() {
      transfer(stream, extent, pending, cause);
      pending = 0;
    }
  }

  /** Totals since the device was created: bytes moved, busy time, seeks. */
  public DeviceQueue.State totals() {
    return state.update(s -> s, null);
  }

  /** Busy time since the device was created for each cause, by {@link IoCause#ordinal()}. */
  public long[] busyNanosByCause() {
    return state.busyNanosByCause();
  }

  /** How much of its current extent a stream has left on a device. */
  public static final class Extent {
    private long left;

    /** Takes {@code bytes} from the extent; true when they start a new one. */
    boolean consume(long bytes, long extentBytes) {
      boolean starts = left <= 0;
      if (starts) {
        left = extentBytes;
      }
      left -= bytes;
      return starts;
    }
  }
}
