package org.mpcache.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The machine's CPU time from {@code /proc/stat}: every JVM of the embedded cluster (daemons,
 * ApplicationMasters, task JVMs) shares the same cores, so whether a job was CPU bound shows
 * only machine-wide. Without {@code /proc/stat} (not Linux) readings are empty.
 */
final class MachineCpu {
  /** Busy and total jiffies since boot. */
  record Reading(long busy, long total) {
    static final Reading NONE = new Reading(0, 0);

    /** Share of the cores' time that was busy since {@code earlier}; NaN without readings. */
    double busySince(Reading earlier) {
      long total = this.total - earlier.total;
      return total <= 0 ? Double.NaN : (busy - earlier.busy) / (double) total;
    }
  }

  private MachineCpu() {
  }

  static Reading read() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
      // cpu user nice system idle iowait irq softirq steal ...
      long[] jiffies = Arrays.stream(first.trim().split("\\s+")).skip(1)
          .mapToLong(Long::parseLong).toArray();
      long total = Arrays.stream(jiffies).limit(8).sum();
      return new Reading(total - jiffies[3] - jiffies[4], total);
    } catch (IOException | RuntimeException e) {
      return Reading.NONE;
    }
  }
}
