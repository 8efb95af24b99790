package org.mpcache.bench.device;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.BenchmarkHarness;

/**
 * The default profiles against published throughput of interleaved sequential readers
 * (docs/benchmarks.md, "Calibration"): pure arithmetic through {@link DeviceQueue}, no clock.
 */
class TestDeviceCalibration {
  /**
   * T(n)/T(1) of a 7200 rpm HDD: seconds to hash 1.7 GB with 1 thread over seconds with n
   * threads, each reading its own files with POSIX_FADV_SEQUENTIAL, as the DataNode reads blocks.
   * P. Kołaczkowski, "Performance Impact of Parallel Disk Access", 2020, Fig. 5
   * (https://pkolaczk.github.io/disk-parallelism/).
   */
  private static final Map<Integer, Double> PUBLISHED_HDD =
      Map.of(2, 24.131 / 54.59, 4, 24.131 / 48.44, 8, 24.131 / 45.114);
  /** Assumed: a SATA SSD has no head to move and keeps its sequential rate. */
  private static final Map<Integer, Double> ASSUMED_SSD = Map.of(2, 1.0, 4, 1.0, 8, 1.0);
  private static final double TOLERANCE = 0.15;
  /** A DataNode packet, and what {@link Device.Meter} charges at a time. */
  private static final long REQUEST_BYTES = 64 << 10;
  /** Long enough that a lone reader's one seek at its start weighs under 0.2 %. */
  private static final long BYTES_PER_READER = 1L << 30;

  @Test
  void theDefaultHddLosesWhatThePublishedDiskLosesToInterleavedReaders() {
    assertRatiosMatch(DeviceProfile.parse(BenchmarkHarness.DEFAULT_HDD), PUBLISHED_HDD);
  }

  @Test
  void theDefaultSsdHardlySlowsUnderInterleavedReaders() {
    assertRatiosMatch(DeviceProfile.parse(BenchmarkHarness.DEFAULT_SSD), ASSUMED_SSD);
  }

  private static void assertRatiosMatch(DeviceProfile profile, Map<Integer, Double> expected) {
    double alone = throughput(profile, 1);
    expected.forEach((readers, ratio) -> {
      double emulated = throughput(profile, readers) / alone;
      assertTrue(Math.abs(emulated / ratio - 1) <= TOLERANCE, String.format(Locale.ROOT,
          "%s with %d readers keeps %.3f of its rate, expected %.3f ± %.0f %%", profile, readers,
          emulated, ratio, TOLERANCE * 100));
    });
  }

  /**
   * Bytes per second the device delivers to {@code readers} sequential streams that each issue
   * their next request as soon as the last one is served: the FIFO queue then serves them in turn.
   */
  private static double throughput(DeviceProfile profile, int readers) {
    Device.Extent[] extents = new Device.Extent[readers];
    for (int r = 0; r < readers; r++) {
      extents[r] = new Device.Extent();
    }
    DeviceQueue.State device = DeviceQueue.State.IDLE;
    for (long read = 0; read < BYTES_PER_READER; read += REQUEST_BYTES) {
      for (int r = 0; r < readers; r++) {
        boolean startsExtent = extents[r].consume(REQUEST_BYTES, profile.extentBytes());
        device = DeviceQueue.serve(profile, device, 0, r + 1, REQUEST_BYTES, startsExtent);
      }
    }
    return device.bytes() * 1e9 / device.busyUntil();
  }
}
