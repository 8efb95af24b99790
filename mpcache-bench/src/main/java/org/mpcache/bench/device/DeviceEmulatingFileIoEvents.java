package org.mpcache.bench.device;

import java.io.File;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.FaultInjectorFileIoEvents;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.slave.inputcache.FillThreads;

/**
 * Charges a DataNode's file I/O to emulated devices. The DataNode's {@link FileIoProvider} calls
 * its fault-injection hook before every read, write and transfer of block and meta files, with
 * the volume and the length: the one place all HDFS block I/O passes. A volume's device is found
 * by its directory; I/O without a volume is the mpCache slave's SSD copies (the slave does its
 * copy I/O through the same provider). Each DataXceiver thread is one stream.
 */
public final class DeviceEmulatingFileIoEvents extends FaultInjectorFileIoEvents {
  /** Threads that read a replica again to copy it into a cache. */
  private static final List<String> CACHE_FILL_THREADS = List.of(FillThreads.BACKGROUND,
      FillThreads.WRITER, MemoryCacheAwareFsDatasetFactory.LOADER_THREAD);
  private static final ThreadLocal<Boolean> FROM_MEMORY = ThreadLocal.withInitial(() -> false);

  private final EmulatedDevices devices;
  private final Device ssd;
  private final Map<FsVolumeSpi, Optional<Device>> volumes = new ConcurrentHashMap<>();
  private final ThreadLocal<Map<Device, Device.Extent>> extents =
      ThreadLocal.withInitial(HashMap::new);

  private DeviceEmulatingFileIoEvents(Configuration conf, EmulatedDevices devices) {
    super(conf);
    this.devices = devices;
    String ssdDir = conf.getTrimmed(MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY, "").split(",")[0];
    this.ssd = ssdDir.isEmpty() ? null : devices.deviceFor(ssdDir);
  }

  /**
   * Puts the hook into the DataNode's provider. Hadoop has no key to choose this hook's class,
   * so the benchmark sets the provider's field (its own test-only seam; never in production).
   */
  public static void install(FileIoProvider provider, Configuration conf) {
    EmulatedDevices devices = EmulatedDevices.of(conf);
    if (!devices.emulating()) {
      return;
    }
    try {
      Field hook = FileIoProvider.class.getDeclaredField("faultInjectorEventHook");
      hook.setAccessible(true);
      hook.set(provider, new DeviceEmulatingFileIoEvents(conf, devices));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot install device emulation into the DataNode's "
          + "FileIoProvider of this Hadoop version", e);
    }
  }

  /** Runs {@code read} as served from RAM (a block Hadoop's centralized cache holds). */
  public static <T, E extends Exception> T fromMemory(ThrowingSupplier<T, E> read) throws E {
    FROM_MEMORY.set(true);
    try {
      return read.get();
    } finally {
      FROM_MEMORY.set(false);
    }
  }

  /** A read that may throw. */
  @FunctionalInterface
  public interface ThrowingSupplier<T, E extends Exception> {
    T get() throws E;
  }

  @Override
  public void beforeFileIo(FsVolumeSpi volume, FileIoProvider.OPERATION op, long len) {
    super.beforeFileIo(volume, op, len);
    switch (op) {
      case READ, TRANSFER, WRITE, NATIVE_COPY -> charge(volume, len,
          causeOf(volume != null, op, Thread.currentThread().getName()));
      default -> {
      }
    }
  }

  /**
   * What a DataNode's file I/O is for: a cache's own copy when it has no volume (the slave's
   * SSD copies), a cache fill's second read of a replica when a fill or memory-cache loader
   * thread reads a volume, else the HDFS read or write it is.
   */
  static IoCause causeOf(boolean onVolume, FileIoProvider.OPERATION op, String thread) {
    boolean read = op == FileIoProvider.OPERATION.READ || op == FileIoProvider.OPERATION.TRANSFER;
    if (!onVolume) {
      return IoCause.CACHE_COPY;
    }
    if (!read) {
      return IoCause.HDFS_WRITE;
    }
    return CACHE_FILL_THREADS.stream().anyMatch(thread::startsWith) ? IoCause.FILL_READ
        : IoCause.HDFS_READ;
  }

  private void charge(FsVolumeSpi volume, long len, IoCause cause) {
    if (FROM_MEMORY.get()) {
      return;
    }
    Device device = volume == null ? ssd : volumes.computeIfAbsent(volume,
        v -> Optional.ofNullable(devices.deviceFor(new File(v.getBaseURI()).getPath())))
        .orElse(null);
    if (device != null) {
      device.transfer(EmulatedDevices.threadStream(),
          extents.get().computeIfAbsent(device, d -> new Device.Extent()), len, cause);
    }
  }
}
