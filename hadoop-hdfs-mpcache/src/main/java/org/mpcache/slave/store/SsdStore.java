package org.mpcache.slave.store;

import static org.mpcache.conf.MpCacheConfigKeys.AUTO_CAPACITY_FRACTION;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.mpcache.conf.SlaveSettings;
import org.mpcache.slave.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of the input cache on the SSD directories. Layout of each directory:
 * {@code mpcache/input/<block pool>/<subdir>/blk_<id>_<genstamp>[.meta]} for copies and
 * {@code mpcache/tmp/} for fills under way. A copy is complete once its data file exists (the
 * meta file is renamed into place first), so the files themselves are the index that survives
 * a restart. Not thread-safe: the input cache calls it under its lock.
 */
public final class SsdStore {
  private static final Logger LOG = LoggerFactory.getLogger(SsdStore.class);
  static final String LAYOUT_DIR = "mpcache";
  private static final String META_SUFFIX = ".meta";
  private static final Pattern DATA_NAME = Pattern.compile("blk_(-?\\d+)_(\\d+)");
  private static final int SUBDIRS = 256;

  private final List<CacheDir> dirs;
  private final FileIoProvider io;

  private SsdStore(List<CacheDir> dirs, FileIoProvider io) {
    this.dirs = Collections.unmodifiableList(dirs);
    this.io = io;
  }

  /**
   * Opens every configured directory; one that is missing, not a directory or not writable is
   * kept out of use with an error that names it and the key. Fills under way at the last stop
   * are discarded. Copy files are read and written through {@code io}, the DataNode's
   * {@link FileIoProvider}, so its I/O profiling and fault injection see the SSD as well.
   */
  public static SsdStore open(SlaveSettings settings, FileIoProvider io) {
    List<CacheDir> dirs = new ArrayList<>();
    long share = settings.capacityBytes() / settings.dirs().size();
    for (File configured : settings.dirs()) {
      String problem = usableProblem(configured);
      long quota = share;
      if (problem == null && settings.autoCapacity()) {
        quota = (long) (AUTO_CAPACITY_FRACTION
            * (configured.getUsableSpace() + treeBytes(configured.toPath().resolve(LAYOUT_DIR))));
      }
      CacheDir dir = new CacheDir(configured, quota);
      if (problem == null) {
        try {
          Files.createDirectories(dir.inputRoot());
          deleteTree(dir.tmpRoot());
          Files.createDirectories(dir.tmpRoot());
        } catch (IOException | UncheckedIOException e) {
          problem = "cannot create the cache layout under it: " + e;
        }
      }
      if (problem != null) {
        dir.fail(problem);
        LOG.error("mpCache SSD dir {} ({}) is out of use: {}", configured, DFS_MPCACHE_DIRS_KEY,
            problem);
      }
      dirs.add(dir);
    }
    return new SsdStore(dirs, io);
  }

  /** A copy file opened for positional reads. */
  public RandomAccessFile openForReading(Path file) throws IOException {
    return io.getRandomAccessFile(null, file.toFile(), "r");
  }

  /** A copy file opened as a stream, e.g. to pass its descriptor to a short-circuit reader. */
  public FileInputStream openStream(Path file) throws IOException {
    return io.getFileInputStream(null, file.toFile());
  }

  /** A new file under the store's tmp dir, for a copy being filled. */
  public OutputStream create(Path file) throws IOException {
    return io.getFileOutputStream(null, file.toFile());
  }

  /** Null when the directory can hold the cache, else what is wrong with it. */
  private static String usableProblem(File dir) {
    if (!dir.exists()) {
      return "it does not exist (mpCache does not create SSD mount points; create the directory)";
    }
    if (!dir.isDirectory()) {
      return "it is not a directory";
    }
    File probe = new File(dir, ".mpcache-probe-" + ProcessHandle.current().pid());
    try {
      Files.deleteIfExists(probe.toPath());
      Files.createFile(probe.toPath());
      Files.delete(probe.toPath());
    } catch (IOException e) {
      return "it is not writable (" + e + ")";
    }
    return null;
  }

  public List<CacheDir> dirs() {
    return dirs;
  }

  public boolean anyHealthy() {
    return dirs.stream().anyMatch(CacheDir::healthy);
  }

  public long capacityBytes() {
    return dirs.stream().filter(CacheDir::healthy).mapToLong(CacheDir::quotaBytes).sum();
  }

  public long usedBytes() {
    return dirs.stream().filter(CacheDir::healthy).mapToLong(CacheDir::usedBytes).sum();
  }

  public long freeBytes() {
    return dirs.stream().filter(CacheDir::healthy).mapToLong(CacheDir::freeBytes).sum();
  }

  /**
   * Reserves room for a copy of {@code bytes} in the healthy directory with the most free quota
   * whose file system really has the room; null when none has.
   */
  public CacheDir reserve(long bytes) {
    CacheDir best = null;
    for (CacheDir dir : dirs) {
      if (dir.healthy() && dir.freeBytes() >= bytes
          && (best == null || dir.freeBytes() > best.freeBytes())) {
        best = dir;
      }
    }
    if (best == null) {
      return null;
    }
    long usable = best.configured().getUsableSpace();
    if (usable < bytes) {
      LOG.warn("mpCache SSD dir {} has only {} bytes usable, below its free quota of {} bytes:"
          + " the device is fuller than dfs.mpcache.capacity assumes; not caching", best, usable,
          best.freeBytes());
      return null;
    }
    best.addUsed(bytes);
    return best;
  }

  /** Gives back a reservation whose fill did not complete, and deletes its files. */
  public void abandon(CacheDir dir, long reservedBytes, Path... tmpFiles) {
    dir.addUsed(-reservedBytes);
    for (Path tmp : tmpFiles) {
      deleteQuietly(tmp);
    }
  }

  /** Fresh temporary files for a fill into {@code dir}: data first, then meta. */
  public Path[] tmpFiles(CacheDir dir, BlockKey key, long generationStamp) throws IOException {
    Path data = Files.createTempFile(dir.tmpRoot(), name(key.blockId(), generationStamp) + ".", "");
    return new Path[] {data, data.resolveSibling(data.getFileName() + META_SUFFIX)};
  }

  /** Moves a verified fill into place and turns its reservation into the copy's real size. */
  public CachedCopy commit(CacheDir dir, BlockKey key, long generationStamp, long length,
      long reservedBytes, Path tmpData, Path tmpMeta) throws IOException {
    Path data = dataFile(dir, key, generationStamp);
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    Files.createDirectories(data.getParent());
    long metaLength = Files.size(tmpMeta);
    Files.move(tmpMeta, meta, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.move(tmpData, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    dir.addUsed(length + metaLength - reservedBytes);
    return new CachedCopy(key, generationStamp, length, metaLength, dir, data, meta, true);
  }

  /** Deletes a copy's files (data first, so a crash in between leaves no complete copy). */
  public void delete(CachedCopy copy) {
    deleteQuietly(copy.dataFile());
    deleteQuietly(copy.metaFile());
    copy.dir().addUsed(-copy.bytes());
  }

  /**
   * Every complete copy of the block pool in the healthy directories, counted as used and not
   * yet verified. Incomplete leftovers are deleted.
   */
  public List<CachedCopy> scan(String blockPoolId) {
    List<CachedCopy> copies = new ArrayList<>();
    for (CacheDir dir : dirs) {
      if (!dir.healthy()) {
        continue;
      }
      Path poolRoot = dir.inputRoot().resolve(blockPoolId);
      if (!Files.isDirectory(poolRoot)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(poolRoot, 2)) {
        for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
          CachedCopy copy = loadCopy(dir, blockPoolId, file);
          if (copy != null) {
            dir.addUsed(copy.bytes());
            copies.add(copy);
          }
        }
      } catch (IOException | UncheckedIOException e) {
        fail(dir, "cannot list " + poolRoot + ": " + e);
      }
    }
    return copies;
  }

  private CachedCopy loadCopy(CacheDir dir, String blockPoolId, Path file) throws IOException {
    String name = file.getFileName().toString();
    boolean isMeta = name.endsWith(META_SUFFIX);
    Matcher matcher = DATA_NAME.matcher(isMeta ? name.substring(0, name.length() - META_SUFFIX.length()) : name);
    if (!matcher.matches()) {
      LOG.warn("mpCache: deleting unexpected file {} in the SSD cache", file);
      deleteQuietly(file);
      return null;
    }
    Path data = isMeta ? file.resolveSibling(matcher.group()) : file;
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    if (isMeta) {
      if (!Files.exists(data)) {
        deleteQuietly(meta); // the data file never made it: an interrupted commit
      }
      return null; // a complete copy is loaded through its data file
    }
    if (!Files.exists(meta)) {
      LOG.warn("mpCache: deleting {}: its checksum file is missing", data);
      deleteQuietly(data);
      return null;
    }
    BlockKey key = new BlockKey(blockPoolId, Long.parseLong(matcher.group(1)));
    return new CachedCopy(key, Long.parseLong(matcher.group(2)), Files.size(data),
        Files.size(meta), dir, data, meta, false);
  }

  /**
   * Checks a directory after an I/O error; a directory that no longer passes is taken out of
   * use. Returns true when it failed.
   */
  public boolean failIfBroken(CacheDir dir, IOException cause) {
    if (!dir.healthy()) {
      return true;
    }
    String problem = usableProblem(dir.configured());
    if (problem == null && !Files.isDirectory(dir.inputRoot())) {
      problem = "its cache layout " + dir.inputRoot() + " disappeared";
    }
    if (problem == null) {
      return false;
    }
    fail(dir, problem + "; first error: " + cause);
    return true;
  }

  private void fail(CacheDir dir, String reason) {
    dir.fail(reason);
    dir.addUsed(-dir.usedBytes());
    LOG.error("mpCache SSD dir {} ({}) failed and is out of use until restart: {}", dir,
        DFS_MPCACHE_DIRS_KEY, reason);
  }

  private static Path dataFile(CacheDir dir, BlockKey key, long generationStamp) {
    String subdir = Integer.toHexString((int) (key.blockId() & (SUBDIRS - 1)));
    return dir.inputRoot().resolve(key.blockPoolId()).resolve(subdir)
        .resolve(name(key.blockId(), generationStamp));
  }

  private static String name(long blockId, long generationStamp) {
    return "blk_" + blockId + "_" + generationStamp;
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("mpCache: could not delete {}: {}", file, e.toString());
    }
  }

  private static long treeBytes(Path root) {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.sorted(Collections.reverseOrder())::iterator) {
        Files.delete(file);
      }
    }
  }
}
