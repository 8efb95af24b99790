package org.mpcache.bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestDeviceQueue {
  /** 1 MB/s (so 1 byte = 953.67 ns), 10 ms seek, 1 MB extents. */
  private static final DeviceProfile HDD = DeviceProfile.parse("1MB/s,10ms,1024KB");
  private static final long MB = 1 << 20;

  @Test
  void aLoneStreamPaysOneSeekThenOnlyBandwidth() {
    DeviceQueue.State s = DeviceQueue.serve(HDD, DeviceQueue.State.IDLE, 0, 7, MB, true);
    assertEquals(10_000_000 + 1_000_000_000L, s.busyUntil());
    s = DeviceQueue.serve(HDD, s, 0, 7, MB, true);
    assertEquals(10_000_000 + 2_000_000_000L, s.busyUntil(), "same stream, no second seek");
    assertEquals(1, s.seeks());
    assertEquals(2 * MB, s.bytes());
  }

  @Test
  void interleavedStreamsSeekAtEveryExtent() {
    DeviceQueue.State s = DeviceQueue.State.IDLE;
    for (int i = 0; i < 4; i++) {
      s = DeviceQueue.serve(HDD, s, 0, 1 + i % 2, MB, true);
    }
    assertEquals(4, s.seeks());
    assertEquals(4 * (10_000_000 + 1_000_000_000L), s.busyUntil());
  }

  @Test
  void requestsQueueBehindTheBusyDeviceAndAnIdleDeviceStartsNow() {
    DeviceQueue.State busy = DeviceQueue.serve(HDD, DeviceQueue.State.IDLE, 0, 1, MB, false);
    DeviceQueue.State queued = DeviceQueue.serve(HDD, busy, 5, 1, MB, false);
    assertEquals(2 * busy.busyUntil(), queued.busyUntil());
    DeviceQueue.State later = DeviceQueue.serve(HDD, busy, 5_000_000_000L, 1, MB, false);
    assertEquals(5_000_000_000L + 1_000_000_000L, later.busyUntil());
    assertEquals(2_000_000_000L, later.busyNanos(), "idle time is not busy time");
  }

  @Test
  void extentsStartAgainAfterTheirBytes() {
    Device.Extent extent = new Device.Extent();
    assertTrue(extent.consume(624 << 10, MB));
    assertEquals(false, extent.consume(400 << 10, MB));
    assertTrue(extent.consume(1, MB), "the first megabyte is used up");
  }

  @Test
  void profilesParseAndNameTheirFormOnError() {
    DeviceProfile p = DeviceProfile.parse(" 120MB/s , 8ms , 512KB ");
    assertEquals(120 * MB, p.bytesPerSecond());
    assertEquals(8_000_000, p.seekNanos());
    assertEquals(512 << 10, p.extentBytes());
    assertEquals(p, DeviceProfile.parse(p.toString()));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DeviceProfile.parse("fast"));
    assertTrue(e.getMessage().contains("<bandwidth>MB/s,<seek>ms,<extent>KB"), e.getMessage());
  }
}
