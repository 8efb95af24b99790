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

  /** Moves {@code bytes} for {@code stream} on this device, waiting as long as the device would. */
  public void transfer(long stream, Extent extent, long bytes) {
    if (bytes <= 0 || !enabled.getAsBoolean()) {
      return;
    }
    boolean startsExtent = extent.consume(bytes, profile.extentBytes());
    long now = System.nanoTime();
    long done = state.update(
        s -> DeviceQueue.serve(profile, s, now, stream, bytes, startsExtent)).busyUntil();
    for (long wait = done - System.nanoTime(); wait > 0; wait = done - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  /** Totals since the device was created: bytes moved, busy time, seeks. */
  public DeviceQueue.State totals() {
    return state.update(s -> s);
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
