package org.mpcache.slave.inputcache;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.mpcache.conf.SlaveSettings;

/**
 * An input cache on a temporary SSD dir over {@link FakeReplicas}, with an SSD fault hook and the
 * revoked short-circuit slots recorded: the cache's parts at work without a DataNode. Reads go
 * through the cache as a DataNode's BlockSender makes them (checksums, then data).
 */
public final class CacheFixture implements AutoCloseable {
  public final FakeReplicas replicas = new FakeReplicas();
  final List<BlockKey> revoked = Collections.synchronizedList(new ArrayList<>());
  /** The short-circuit slots local readers hold (of any block). */
  final Set<Object> slots = ConcurrentHashMap.newKeySet();
  public final File ssd;
  final SsdFaults faults;
  public final SsdInputCache cache;

  /** Settings for a test to change before {@link #open}. */
  public static final class Settings {
    public long capacityBytes = 8 << 20;
    int backgroundThreads = 1;
    int backgroundQueue = 64;
    long handoutMaxAgeMillis = 0;
    long scrubBytesPerSecond = 0;
    long dirCheckMillis = 200;
    long ioTimeoutMillis = 1000;
    long admissionWaitMillis = 10_000;
    boolean missingAtStart;
    public CacheArbiter arbiter;

    public CacheFixture open(String name) throws Exception {
      return new CacheFixture(name, this);
    }
  }

  public static Settings settings() {
    return new Settings();
  }

  private CacheFixture(String name, Settings settings) throws Exception {
    ssd = GenericTestUtils.getTestDir(name + "-" + System.nanoTime());
    if (!settings.missingAtStart) {
      Files.createDirectories(ssd.toPath());
    }
    FileIoProvider io = new FileIoProvider(null, null);
    faults = SsdFaults.install(io);
    SlaveSettings slave = new SlaveSettings(List.of(ssd), settings.capacityBytes,
        settings.backgroundThreads, settings.backgroundQueue, settings.handoutMaxAgeMillis,
        settings.scrubBytesPerSecond, settings.dirCheckMillis, settings.ioTimeoutMillis,
        PosixFilePermissions.fromString("rwx------"), settings.admissionWaitMillis, 5);
    cache = SsdInputCache.open(slave, replicas, capacity -> settings.arbiter != null
        ? settings.arbiter : new LocalArbiter(capacity), io, new ShortCircuitSlots() {
          @Override
          public void revoke(BlockKey key) {
            revoked.add(key);
          }

          @Override
          public Set<Object> registeredSlots(BlockKey key) {
            return Set.copyOf(slots);
          }
        });
    cache.loadBlockPool(FakeReplicas.POOL);
    awaitCopiesTakenIn();
  }

  /** A whole-block read from offset 0, as a remote reader makes it. */
  byte[] read(BlockKey key) throws IOException {
    return read(key, 0, Integer.MAX_VALUE);
  }

  /** Up to {@code length} bytes from {@code offset}, a chunk boundary. */
  byte[] read(BlockKey key, long offset, int length) throws IOException {
    ExtendedBlock block = replicas.block(key);
    InputStream meta = cache.openMeta(block, ReadCaller.CLIENT_READ);
    try (InputStream data = cache.openData(block, offset, ReadCaller.CLIENT_READ)) {
      byte[] buffer = new byte[(int) Math.min(length, block.getNumBytes() - offset)];
      IOUtils.readFully(data, buffer, 0, buffer.length);
      return buffer;
    } finally {
      IOUtils.closeStream(meta);
    }
  }

  /**
   * Reads the block whole and waits until its copy is in the cache. A read while a dir takes in
   * the copies it holds (at start, or back in use) makes no copy: it waits for that first.
   */
  public void fill(BlockKey key) throws Exception {
    awaitCopiesTakenIn();
    read(key);
    waitCached(key);
  }

  private void awaitCopiesTakenIn() throws Exception {
    GenericTestUtils.waitFor(() -> !cache.takingInCopies(), 10, 30_000, "copies taken in");
  }

  void waitCached(BlockKey key) throws Exception {
    GenericTestUtils.waitFor(() -> cache.isCached(key), 10, 30_000, key + " cached");
  }

  /** The data file of the block's copy of its replica's generation, found on the SSD dir. */
  File copyFile(BlockKey key) throws IOException {
    String name = "blk_" + key.blockId() + "_" + replicas.block(key).getGenerationStamp() + "_";
    try (var files = Files.walk(ssd.toPath().resolve("mpcache/input"))) {
      return files.map(java.nio.file.Path::toFile)
          .filter(f -> f.getName().startsWith(name) && !f.getName().endsWith(".meta"))
          .findFirst().orElseThrow(() -> new IOException("no copy of " + key));
    }
  }

  /** Files under the dir's tmp area (fills under way or left behind). */
  String[] tmpFiles() {
    String[] files = new File(ssd, "mpcache/tmp").list();
    return files == null ? new String[0] : files;
  }

  @Override
  public void close() {
    faults.release();
    cache.shutdown();
  }
}
