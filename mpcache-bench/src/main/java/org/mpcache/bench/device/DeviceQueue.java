package org.mpcache.bench.device;

/**
 * The arithmetic of one emulated device: a single FIFO queue. A request is served when the
 * device is free, pays a seek when it opens an extent for a stream other than the last one
 * served, then its transfer time. Pure: the shared state it updates is passed in and out.
 */
public final class DeviceQueue {
  /**
   * Where a device stands: busy until ({@link System#nanoTime()}, which is machine-wide on
   * Linux), which stream it served last (streams are non-zero), and running totals.
   */
  public record State(long busyUntil, long lastStream, long bytes, long busyNanos, long seeks) {
    public static final State IDLE = new State(0, 0, 0, 0, 0);
  }

  private DeviceQueue() {
  }

  /**
   * The device after serving a request of {@code bytes} that arrives at {@code now}; the request
   * completes at the returned state's {@link State#busyUntil()}.
   *
   * @param startsExtent whether the stream begins a new extent with this request
   */
  public static State serve(DeviceProfile profile, State device, long now, long stream,
      long bytes, boolean startsExtent) {
    boolean seek = startsExtent && device.lastStream() != stream;
    long cost = profile.transferNanos(bytes) + (seek ? profile.seekNanos() : 0);
    long start = Math.max(now, device.busyUntil());
    return new State(start + cost, stream, device.bytes() + bytes, device.busyNanos() + cost,
        device.seeks() + (seek ? 1 : 0));
  }
}
