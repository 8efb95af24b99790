package org.mpcache.bench.device;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A device's {@link DeviceQueue.State} in a memory-mapped file, so that the DataNodes in the
 * harness JVM and the task JVMs YARN launches queue on the same emulated device. A spin lock word
 * guards the few fields (held for nanoseconds; every process maps the same page). Busy time is
 * also kept per {@link IoCause}.
 */
final class SharedDeviceState {
  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final int LOCK = 0;
  private static final int BUSY_UNTIL = 8;
  private static final int LAST_STREAM = 16;
  private static final int BYTES = 24;
  private static final int BUSY_NANOS = 32;
  private static final int SEEKS = 40;
  private static final int BUSY_BY_CAUSE = 64;
  private static final int SIZE = BUSY_BY_CAUSE + 8 * IoCause.values().length;

  private final MappedByteBuffer page;

  private SharedDeviceState(MappedByteBuffer page) {
    this.page = page;
  }

  /** Maps the state file, creating it (zeros: an idle device) when it does not exist. */
  static SharedDeviceState map(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return new SharedDeviceState(channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE));
    }
  }

  /**
   * Applies {@code change} atomically across processes, adds the busy time it adds to
   * {@code cause}'s (to none when null), and returns the new state.
   */
  DeviceQueue.State update(UnaryOperator<DeviceQueue.State> change, IoCause cause) {
    return locked(() -> {
      DeviceQueue.State before = read();
      DeviceQueue.State next = change.apply(before);
      page.putLong(BUSY_UNTIL, next.busyUntil());
      page.putLong(LAST_STREAM, next.lastStream());
      page.putLong(BYTES, next.bytes());
      page.putLong(BUSY_NANOS, next.busyNanos());
      page.putLong(SEEKS, next.seeks());
      if (cause != null) {
        int slot = causeSlot(cause);
        page.putLong(slot, page.getLong(slot) + next.busyNanos() - before.busyNanos());
      }
      return next;
    });
  }

  /** Busy time charged to each cause, indexed by {@link IoCause#ordinal()}. */
  long[] busyNanosByCause() {
    return locked(() -> Arrays.stream(IoCause.values())
        .mapToLong(cause -> page.getLong(causeSlot(cause))).toArray());
  }

  private <T> T locked(Supplier<T> action) {
    while (!LONGS.compareAndSet(page, LOCK, 0L, 1L)) {
      Thread.onSpinWait();
    }
    try {
      return action.get();
    } finally {
      LONGS.setVolatile(page, LOCK, 0L);
    }
  }

  private static int causeSlot(IoCause cause) {
    return BUSY_BY_CAUSE + 8 * cause.ordinal();
  }

  private DeviceQueue.State read() {
    return new DeviceQueue.State(page.getLong(BUSY_UNTIL), page.getLong(LAST_STREAM),
        page.getLong(BYTES), page.getLong(BUSY_NANOS), page.getLong(SEEKS));
  }
}
