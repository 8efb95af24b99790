package org.mpcache.slave.store;

import static org.mpcache.conf.MpCacheConfigKeys.AUTO_CAPACITY_FRACTION;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.io.IOUtils;
import org.mpcache.slave.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of the input cache on the SSD directories. Layout of each directory:
 * {@code mpcache/input/<block pool>/<subdir>/blk_<id>_<genstamp>[.meta]} for copies and
 * {@code mpcache/tmp/} for fills under way. A copy is complete once its data file exists (the
 * meta file is renamed into place first), so the files themselves are the index that survives
 * a restart.
 *
 * <p>Every call reaches the device through the DataNode's {@link FileIoProvider} (its profiling
 * and fault-injection hooks see the SSD too) and is watched by the dir's {@link SsdLane}.
 * Reads and fills run on their callers' threads; deletes, checks and scans on the lane. Nothing
 * here locks: the cache's index decides, the store only does the I/O.
 */
public final class SsdStore {
  private static final Logger LOG = LoggerFactory.getLogger(SsdStore.class);
  static final String LAYOUT_DIR = "mpcache";
  private static final String META_SUFFIX = ".meta";
  private static final Pattern DATA_NAME = Pattern.compile("blk_(-?\\d+)_(\\d+)");
  private static final int SUBDIRS = 256;

  private final List<CacheDir> dirs;
  private final FileIoProvider io;
  private final Set<PosixFilePermission> dirPermission;

  private SsdStore(List<CacheDir> dirs, FileIoProvider io, Set<PosixFilePermission> dirPermission) {
    this.dirs = Collections.unmodifiableList(dirs);
    this.io = io;
    this.dirPermission = dirPermission;
  }

  /**
   * Opens every configured directory, each checked on its own lane within {@code timeoutMillis}:
   * one that is missing, not a directory, not writable or not answering is kept out of use with
   * an error that names it and the key. Its layout gets {@code dirPermission} (the DataNode's
   * {@code dfs.datanode.data.dir.perm}), and fills under way at the last stop are discarded.
   *
   * @param capacityBytes the node's cache capacity, split evenly; 0 for 90 % of each dir's
   *     usable space (plus what the cache holds there)
   */
  public static SsdStore open(List<File> configuredDirs, long capacityBytes, FileIoProvider io,
      Set<PosixFilePermission> dirPermission, long timeoutMillis) {
    long share = capacityBytes / configuredDirs.size();
    List<CacheDir> dirs = new ArrayList<>();
    SsdStore store = new SsdStore(dirs, io, dirPermission);
    for (File configured : configuredDirs) {
      SsdLane lane = new SsdLane(configured.getPath());
      long quota = share;
      long usable = Long.MAX_VALUE;
      String problem;
      try {
        usable = await(lane.submit(() -> {
          store.checkUsable(configured);
          return configured.getUsableSpace();
        }), timeoutMillis, configured);
        if (capacityBytes == 0) {
          quota = (long) (AUTO_CAPACITY_FRACTION * (usable
              + treeBytes(configured.toPath().resolve(LAYOUT_DIR))));
        }
        problem = null;
      } catch (IOException e) {
        problem = e.getMessage();
      }
      CacheDir dir = new CacheDir(configured, quota, lane);
      dir.usableBytes(usable);
      if (problem == null) {
        try {
          await(lane.submit(() -> {
            store.prepare(dir);
            return null;
          }), timeoutMillis, configured);
        } catch (IOException e) {
          problem = "cannot create the cache layout under it: " + e.getMessage();
        }
      }
      if (problem != null) {
        dir.fail(problem);
        LOG.error("mpCache SSD dir {} ({}) is out of use: {}", configured, DFS_MPCACHE_DIRS_KEY,
            problem);
      }
      dirs.add(dir);
    }
    return store;
  }

  /** The result of lane work, or an {@link IOException} naming why there is none in time. */
  public static <T> T await(Future<T> work, long timeoutMillis, Object dir) throws IOException {
    try {
      return work.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the device did not answer within " + timeoutMillis + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException ioe ? ioe : new IOException(String.valueOf(cause), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + dir);
    }
  }

  public List<CacheDir> dirs() {
    return dirs;
  }

  // ---- Reads (on the reader's thread) -----------------------------------------------------

  /** A copy's data and checksum files, opened for positional reads. */
  public CopyFiles openForReading(CachedCopy copy) throws SsdIoException {
    SsdLane lane = copy.dir().lane();
    RandomAccessFile data = lane.track(() -> io.getRandomAccessFile(null,
        copy.dataFile().toFile(), "r"));
    try {
      RandomAccessFile meta = lane.track(() -> io.getRandomAccessFile(null,
          copy.metaFile().toFile(), "r"));
      return new CopyFiles(copy, data, meta);
    } catch (SsdIoException e) {
      IOUtils.closeStream(data);
      throw e;
    }
  }

  /** A copy's data and checksum files as streams, to pass their descriptors to a local reader. */
  public FileInputStream[] openStreams(CachedCopy copy) throws SsdIoException {
    SsdLane lane = copy.dir().lane();
    FileInputStream data = lane.track(() -> io.getFileInputStream(null, copy.dataFile().toFile()));
    try {
      return new FileInputStream[] {data,
          lane.track(() -> io.getFileInputStream(null, copy.metaFile().toFile()))};
    } catch (SsdIoException e) {
      IOUtils.closeStream(data);
      throw e;
    }
  }

  // ---- Fills (on the fill's writer thread) ------------------------------------------------

  /** Fresh temporary files for a fill into {@code dir}, open for writing: data, then meta. */
  public FillFiles createFill(CacheDir dir, BlockKey key, long generationStamp)
      throws SsdIoException {
    SsdLane lane = dir.lane();
    Path data = lane.track(() -> Files.createTempFile(dir.tmpRoot(),
        name(key.blockId(), generationStamp) + ".", ""));
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    OutputStream dataOut = null;
    try {
      dataOut = new TrackedOutputStream(
          lane.track(() -> io.getFileOutputStream(null, data.toFile())), lane);
      OutputStream metaOut = new TrackedOutputStream(
          lane.track(() -> io.getFileOutputStream(null, meta.toFile())), lane);
      return new FillFiles(dir, data, meta, dataOut, metaOut);
    } catch (SsdIoException e) {
      IOUtils.closeStream(dataOut);
      discard(dir, data, meta);
      throw e;
    }
  }

  /**
   * Moves a fill's closed files into place (meta first, so the data file marks a complete copy)
   * and returns the copy, verified at {@code now}.
   */
  public CachedCopy commit(FillFiles files, BlockKey key, long generationStamp, long length,
      long metaLength, long now) throws SsdIoException {
    CacheDir dir = files.dir();
    Path data = dataFile(dir, key, generationStamp);
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    SsdLane lane = dir.lane();
    lane.track(() -> {
      makeDirs(dir.inputRoot(), data.getParent());
      io.move(null, files.meta(), meta, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      io.move(null, files.data(), data, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      return null;
    });
    return new CachedCopy(key, generationStamp, length, metaLength, dir, data, meta, now);
  }

  /** Deletes files on the caller's thread, logging what cannot be deleted. */
  public void discard(CacheDir dir, Path... files) {
    for (Path file : files) {
      try {
        dir.lane().track(() -> io.deleteWithExistsCheck(null, file.toFile()));
      } catch (IOException e) {
        LOG.warn("mpCache: could not delete {}: {}", file, e.toString());
      }
    }
  }

  // ---- Dir work (callers run it on the dir's lane) ------------------------------------------

  /** What a check of a dir found. */
  public record DirCheck(long usableBytes, boolean layoutPresent) {
  }

  /**
   * Checks a dir: a file can be created and deleted in it; answers the device's usable bytes and
   * whether the cache layout is there, or fails with what is wrong.
   */
  public DirCheck check(CacheDir dir) throws IOException {
    checkUsable(dir.configured());
    return new DirCheck(dir.configured().getUsableSpace(),
        io.exists(null, dir.inputRoot().toFile()));
  }

  /** Creates the dir's layout with the data-dir permission and empties its tmp dir. */
  public void prepare(CacheDir dir) throws IOException {
    makeDirs(dir.configured().toPath(), dir.inputRoot());
    makeDirs(dir.configured().toPath(), dir.tmpRoot());
    // Made by an earlier version, perhaps with other permissions.
    restrict(dir.layoutRoot());
    restrict(dir.inputRoot());
    restrict(dir.tmpRoot());
    for (File leftover : io.listFiles(null, dir.tmpRoot().toFile())) {
      io.fullyDelete(null, leftover);
    }
  }

  /**
   * Every complete copy of the block pool in the dir, not yet verified; incomplete and
   * unexpected files are deleted.
   */
  public List<CachedCopy> scan(CacheDir dir, String blockPoolId) throws IOException {
    List<CachedCopy> copies = new ArrayList<>();
    Path poolRoot = dir.inputRoot().resolve(blockPoolId);
    if (!io.exists(null, poolRoot.toFile())) {
      return copies;
    }
    restrict(poolRoot);
    for (File subdir : io.listFiles(null, poolRoot.toFile())) {
      restrict(subdir.toPath());
      for (File file : io.listFiles(null, subdir)) {
        CachedCopy copy = loadCopy(dir, blockPoolId, file.toPath());
        if (copy != null) {
          copies.add(copy);
        }
      }
    }
    return copies;
  }

  private CachedCopy loadCopy(CacheDir dir, String blockPoolId, Path file) throws IOException {
    String name = file.getFileName().toString();
    boolean isMeta = name.endsWith(META_SUFFIX);
    Matcher matcher = DATA_NAME.matcher(
        isMeta ? name.substring(0, name.length() - META_SUFFIX.length()) : name);
    if (!matcher.matches()) {
      LOG.warn("mpCache: deleting unexpected file {} in the SSD cache", file);
      io.deleteWithExistsCheck(null, file.toFile());
      return null;
    }
    Path data = isMeta ? file.resolveSibling(matcher.group()) : file;
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    if (isMeta) {
      if (!io.exists(null, data.toFile())) {
        io.deleteWithExistsCheck(null, meta.toFile()); // an interrupted commit
      }
      return null; // a complete copy is loaded through its data file
    }
    if (!io.exists(null, meta.toFile())) {
      LOG.warn("mpCache: deleting {}: its checksum file is missing", data);
      io.deleteWithExistsCheck(null, data.toFile());
      return null;
    }
    BlockKey key = new BlockKey(blockPoolId, Long.parseLong(matcher.group(1)));
    return new CachedCopy(key, Long.parseLong(matcher.group(2)), data.toFile().length(),
        meta.toFile().length(), dir, data, meta, CachedCopy.NEVER);
  }

  /** Fails with what keeps the directory from holding the cache. */
  private void checkUsable(File dir) throws IOException {
    if (!dir.exists()) {
      throw new IOException(
          "it does not exist (mpCache does not create SSD mount points; create the directory)");
    }
    if (!dir.isDirectory()) {
      throw new IOException("it is not a directory");
    }
    File probe = new File(dir, ".mpcache-probe-" + ProcessHandle.current().pid());
    try {
      io.deleteWithExistsCheck(null, probe);
      if (!io.createFile(null, probe)) {
        throw new IOException("cannot create " + probe);
      }
      if (!io.delete(null, probe)) {
        throw new IOException("cannot delete " + probe);
      }
    } catch (IOException e) {
      throw new IOException("it is not writable (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Creates {@code target} and the dirs between {@code base} and it, each one it creates
   * restricted. Fills committing at once may create the same dir: one wins, none fails.
   */
  private void makeDirs(Path base, Path target) throws IOException {
    Path relative = base.relativize(target);
    Path current = base;
    for (Path part : relative) {
      current = current.resolve(part);
      if (!io.exists(null, current.toFile()) && io.mkdirs(null, current.toFile())) {
        restrict(current);
      }
    }
  }

  /** Gives a dir of the layout the DataNode's data-dir permission. */
  private void restrict(Path dir) throws IOException {
    if (dirPermission == null) {
      return;
    }
    try {
      if (!Files.getPosixFilePermissions(dir).equals(dirPermission)) {
        Files.setPosixFilePermissions(dir, dirPermission);
      }
    } catch (AccessDeniedException e) {
      throw new IOException("cannot set the permissions of " + dir + ": " + e);
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: left as created
    }
  }

  private static Path dataFile(CacheDir dir, BlockKey key, long generationStamp) {
    String subdir = Integer.toHexString((int) (key.blockId() & (SUBDIRS - 1)));
    return dir.inputRoot().resolve(key.blockPoolId()).resolve(subdir)
        .resolve(name(key.blockId(), generationStamp));
  }

  private static String name(long blockId, long generationStamp) {
    return "blk_" + blockId + "_" + generationStamp;
  }

  private static long treeBytes(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    try (var files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
    }
  }

  public void close() {
    dirs.forEach(dir -> dir.lane().shutdown());
  }
}
