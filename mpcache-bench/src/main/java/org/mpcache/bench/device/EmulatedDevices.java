package org.mpcache.bench.device;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;

/**
 * The emulated devices of a benchmark cluster, found by path: each device owns directory trees
 * (a DataNode volume, an SSD cache dir, a NodeManager's local dirs). Configured by keys that
 * travel in the DataNodes' and the jobs' configurations; the state lives in memory-mapped files
 * under one directory, so every JVM on the machine shares the same device queues.
 *
 * <pre>
 * mpcache.emulation.dir                  = /tmp/run/devices   (unset: no emulation)
 * mpcache.emulation.devices              = node0-hdd,node0-ssd,...
 * mpcache.emulation.device.NAME.profile  = 120MB/s,8ms,1024KB
 * mpcache.emulation.device.NAME.dirs     = /data/dn0/vol0,/data/nm0/local
 * </pre>
 */
public final class EmulatedDevices {
  public static final String DIR_KEY = "mpcache.emulation.dir";
  public static final String DEVICES_KEY = "mpcache.emulation.devices";
  private static final String DEVICE_PREFIX = "mpcache.emulation.device.";
  private static final String CONTROL_FILE = "enabled";
  private static final Map<String, EmulatedDevices> OPENED = new ConcurrentHashMap<>();
  private static final EmulatedDevices NONE = new EmulatedDevices();
  private static final long PROCESS_BITS = ProcessHandle.current().pid() << 40;
  private static final long THREAD_STREAMS = 1L << 39;
  private static final AtomicLong STREAMS = new AtomicLong();

  private final List<Device> devices = new ArrayList<>();
  private final List<String> roots = new ArrayList<>();
  private final List<Device> rootDevices = new ArrayList<>();
  private final MappedByteBuffer control;

  private EmulatedDevices() {
    control = null;
  }

  private EmulatedDevices(Path dir, Configuration conf) throws IOException {
    Files.createDirectories(dir);
    try (FileChannel channel = FileChannel.open(dir.resolve(CONTROL_FILE),
        StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      control = channel.map(FileChannel.MapMode.READ_WRITE, 0, 8);
    }
    for (String name : conf.getTrimmedStringCollection(DEVICES_KEY)) {
      String spec = conf.getTrimmed(DEVICE_PREFIX + name + ".profile");
      if (spec == null) {
        throw new IllegalArgumentException("emulated device " + name + " has no "
            + DEVICE_PREFIX + name + ".profile");
      }
      Device device = new Device(name, DeviceProfile.parse(spec),
          SharedDeviceState.map(dir.resolve(name + ".device")), this::enabled);
      devices.add(device);
      for (String root : conf.getTrimmedStringCollection(DEVICE_PREFIX + name + ".dirs")) {
        roots.add(asPrefix(root));
        rootDevices.add(device);
      }
    }
  }

  /** The devices the configuration names; nothing is emulated when it names no state dir. */
  public static EmulatedDevices of(Configuration conf) {
    String dir = conf.getTrimmed(DIR_KEY);
    if (dir == null || dir.isEmpty()) {
      return NONE;
    }
    // Keyed by every emulation setting: the same devices may own more dirs in a job's conf
    // (its NodeManagers' local dirs) than in the DataNodes'.
    String settings = new TreeMap<>(conf.getPropsWithPrefix("mpcache.emulation.")).toString();
    return OPENED.computeIfAbsent(settings, key -> {
      try {
        return new EmulatedDevices(Paths.get(dir), conf);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open the emulated devices under " + dir, e);
      }
    });
  }

  /** Sets the configuration keys for one device. */
  public static void describe(Configuration conf, String name, DeviceProfile profile,
      List<File> dirs) {
    List<String> names = new ArrayList<>(conf.getTrimmedStringCollection(DEVICES_KEY));
    if (!names.contains(name)) {
      names.add(name);
    }
    conf.setStrings(DEVICES_KEY, names.toArray(new String[0]));
    conf.set(DEVICE_PREFIX + name + ".profile", profile.toString());
    conf.setStrings(DEVICE_PREFIX + name + ".dirs",
        dirs.stream().map(File::getAbsolutePath).toArray(String[]::new));
  }

  public boolean emulating() {
    return control != null;
  }

  /** Turns every device on or off for all JVMs at once (off while loading data). */
  public void setEnabled(boolean on) {
    if (control != null) {
      control.putLong(0, on ? 1 : 0);
    }
  }

  private boolean enabled() {
    return control.getLong(0) != 0;
  }

  /** The device holding {@code path} (the longest configured root above it), or null. */
  public Device deviceFor(String path) {
    Device found = null;
    int longest = -1;
    String file = asPrefix(path);
    for (int i = 0; i < roots.size(); i++) {
      String root = roots.get(i);
      if (root.length() > longest && file.startsWith(root)) {
        found = rootDevices.get(i);
        longest = root.length();
      }
    }
    return found;
  }

  public List<Device> devices() {
    return Collections.unmodifiableList(devices);
  }

  /** A stream id unique on this machine. */
  public static long newStream() {
    return PROCESS_BITS | STREAMS.incrementAndGet();
  }

  /** The stream id of a thread that runs one transfer at a time (a DataNode xceiver). */
  public static long threadStream() {
    return PROCESS_BITS | THREAD_STREAMS | Thread.currentThread().getId();
  }

  private static String asPrefix(String path) {
    String absolute = new File(path).getAbsolutePath();
    return absolute.endsWith(File.separator) ? absolute : absolute + File.separator;
  }
}
