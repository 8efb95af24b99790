package org.mpcache.bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.File;
import java.nio.file.Files;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestEmulatedDevices {
  @Test
  void pathsMapToTheDeviceOfTheirLongestRoot() throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "devices").toFile();
    Configuration conf = new Configuration(false);
    conf.set(EmulatedDevices.DIR_KEY, new File(dir, "state").getPath());
    DeviceProfile profile = DeviceProfile.parse("10MB/s,1ms,64KB");
    EmulatedDevices.describe(conf, "hdd", profile, List.of(new File(dir, "data")));
    EmulatedDevices.describe(conf, "ssd", profile, List.of(new File(dir, "data/ssd")));
    EmulatedDevices devices = EmulatedDevices.of(conf);

    assertEquals("hdd", devices.deviceFor(dir + "/data/dn/blk_1").name());
    assertEquals("ssd", devices.deviceFor(dir + "/data/ssd/copy").name());
    assertNull(devices.deviceFor(dir + "/database/x"), "a sibling with a common prefix");
    assertNull(devices.deviceFor("/elsewhere"));
    assertSame(devices, EmulatedDevices.of(new Configuration(conf)), "one instance per setting");
  }

  @Test
  void smallTransfersAreChargedInBatchesWithNothingLost() throws Exception {
    Device fast = soleDevice("10000MB/s,0ms,64KB", true);
    Device.Meter meter = fast.meter(IoCause.LOCAL_WRITE);
    for (int i = 0; i < 1000; i++) {
      meter.charge(1);
    }
    assertEquals(0, fast.totals().bytes(), "a thousand single bytes wait for a batch");
    meter.charge(64 << 10);
    assertEquals(1000 + (64 << 10), fast.totals().bytes());
    meter.charge(5);
    meter.flush();
    assertEquals(1005 + (64 << 10), fast.totals().bytes(), "the end of a stream flushes");
  }

  @Test
  void disabledDevicesCostNothingAndCountNothing() throws Exception {
    Device slow = soleDevice("1MB/s,1000ms,64KB", false);
    slow.transfer(EmulatedDevices.newStream(), new Device.Extent(), 100 << 20,
        IoCause.HDFS_READ);
    assertEquals(0, slow.totals().bytes());
    assertEquals(0, slow.busyNanosByCause()[IoCause.HDFS_READ.ordinal()]);
    assertFalse(EmulatedDevices.of(new Configuration(false)).emulating());
  }

  @Test
  void busyTimeIsChargedToItsCauseSeeksIncluded() throws Exception {
    Device device = soleDevice("1000MB/s,2ms,64KB", true);
    device.transfer(EmulatedDevices.newStream(), new Device.Extent(), 1_000 << 20 >> 10,
        IoCause.HDFS_READ);
    Device.Meter writes = device.meter(IoCause.LOCAL_WRITE);
    writes.charge(2_000 << 20 >> 10);
    writes.flush();

    long[] busy = device.busyNanosByCause();
    DeviceProfile profile = DeviceProfile.parse("1000MB/s,2ms,64KB");
    long seek = 2_000_000;
    assertEquals(profile.transferNanos(1_000 << 20 >> 10) + seek,
        busy[IoCause.HDFS_READ.ordinal()], "1 ms read after a seek");
    assertEquals(profile.transferNanos(2_000 << 20 >> 10) + seek,
        busy[IoCause.LOCAL_WRITE.ordinal()],
        "another stream seeks again");
    assertEquals(device.totals().busyNanos(), busy[IoCause.HDFS_READ.ordinal()]
        + busy[IoCause.LOCAL_WRITE.ordinal()], "every busy nanosecond has its cause");
    assertEquals(0, busy[IoCause.SHUFFLE_SERVE.ordinal()]);
  }

  /** One emulated device of the given profile over a fresh directory, switched on or off. */
  private static Device soleDevice(String profile, boolean enabled) throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "devices").toFile();
    Configuration conf = new Configuration(false);
    conf.set(EmulatedDevices.DIR_KEY, dir.getPath());
    EmulatedDevices.describe(conf, "device", DeviceProfile.parse(profile), List.of(dir));
    EmulatedDevices devices = EmulatedDevices.of(conf);
    devices.setEnabled(enabled);
    return devices.deviceFor(dir.getPath());
  }
}
