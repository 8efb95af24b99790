package org.mpcache.bench.device;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an emulated device costs: a bandwidth, and a seek paid whenever the device starts an
 * extent for a stream other than the one it served last. Requests of one stream run in extents
 * (what readahead and the I/O scheduler merge into one sequential run), so a lone stream never
 * seeks and interleaved streams seek once per extent each.
 *
 * @param bytesPerSecond sequential bandwidth
 * @param seekNanos cost of moving to another stream
 * @param extentBytes bytes a stream transfers per seek when streams interleave
 */
public record DeviceProfile(long bytesPerSecond, long seekNanos, long extentBytes) {
  private static final Pattern SPEC = Pattern.compile(
      "\\s*(\\d+(?:\\.\\d+)?)\\s*MB/s\\s*,\\s*(\\d+(?:\\.\\d+)?)\\s*ms\\s*,\\s*(\\d+)\\s*KB\\s*");

  public DeviceProfile {
    if (bytesPerSecond <= 0 || seekNanos < 0 || extentBytes <= 0) {
      throw new IllegalArgumentException("bandwidth and extent must be positive, seek not negative");
    }
  }

  /** Parses "120MB/s,8ms,1024KB" (MB = 2^20 bytes). */
  public static DeviceProfile parse(String spec) {
    Matcher m = SPEC.matcher(spec);
    if (!m.matches()) {
      throw new IllegalArgumentException("device profile '" + spec
          + "' is not of the form <bandwidth>MB/s,<seek>ms,<extent>KB, e.g. 120MB/s,8ms,1024KB");
    }
    return new DeviceProfile((long) (Double.parseDouble(m.group(1)) * (1 << 20)),
        (long) (Double.parseDouble(m.group(2)) * 1_000_000), Long.parseLong(m.group(3)) << 10);
  }

  /** Time to move {@code bytes} once the head is in place. */
  public long transferNanos(long bytes) {
    return (long) (bytes * 1e9 / bytesPerSecond);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.1fMB/s,%.2fms,%dKB", bytesPerSecond / (double) (1 << 20),
        seekNanos / 1e6, extentBytes >> 10);
  }
}
