package org.mpcache.slave.inputcache.store;

import static org.mpcache.conf.MpCacheConfigKeys.AUTO_CAPACITY_FRACTION;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_DIRS_KEY;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;
import org.apache.hadoop.io.IOUtils;
import org.mpcache.slave.inputcache.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of the input cache on the SSD directories. Layout of each directory:
 * {@code mpcache/input/<block pool>/<subdir>/blk_<id>_<genstamp>_<n>[.meta]} for copies and
 * {@code mpcache/tmp/} for fills under way. {@code <n>} is drawn at random for each copy, so no
 * two copies ever share a path, even of the same block and generation: a path handed to a reader
 * names one copy's bytes or nothing. A copy is complete once its data file exists (the meta file
 * is moved into place first), so the files themselves are the index that survives a restart.
 *
 * <p>Every call reaches the device through the DataNode's {@link FileIoProvider} (its profiling
 * and fault-injection hooks see the SSD too) and is watched by the dir's {@link SsdLane}, one
 * call at a time. Reads and fills run on their callers' threads; admitting a dir, deleting and
 * scanning on its lane. Nothing here locks: the cache's index decides, the store does the I/O.
 */
public final class SsdStore {
  private static final Logger LOG = LoggerFactory.getLogger(SsdStore.class);
  static final String LAYOUT_DIR = "mpcache";
  /**
   * The layout this release reads and writes; a dir holding another is discarded at admission.
   * Raise it with any change of the files' names, places or meaning.
   */
  static final String LAYOUT_VERSION = "1";
  static final String VERSION_FILE = "VERSION";
  /** Present while no DataNode uses the dir, after a clean stop ({@link #close}). */
  static final String CLEAN_STOP_FILE = "CLEAN";
  private static final String VERSION_KEY = "layoutVersion";
  private static final String DIR_ID_KEY = "dirId";
  private static final String META_SUFFIX = ".meta";
  /** A copy's data file: {@code blk_<id>_<genstamp>_<n>}. */
  private static final Pattern DATA_NAME = Pattern.compile("blk_(-?\\d+)_(\\d+)_\\d+");
  private static final int SUBDIRS = 256;

  private final List<CacheDir> dirs;
  private final FileIoProvider io;
  private final Set<PosixFilePermission> dirPermission;
  /** The node's cache capacity, split evenly among the dirs; 0 for auto (see {@link #admit}). */
  private final long capacityBytes;
  private final int dirCount;

  private SsdStore(List<CacheDir> dirs, FileIoProvider io, Set<PosixFilePermission> dirPermission,
      long capacityBytes, int dirCount) {
    this.dirs = Collections.unmodifiableList(dirs);
    this.io = io;
    this.dirPermission = dirPermission;
    this.capacityBytes = capacityBytes;
    this.dirCount = dirCount;
  }

  /**
   * Opens every configured directory, each admitted ({@link #admit}) on its own lane within
   * {@code timeoutMillis}: one that is missing, not a directory, not writable or not answering
   * is kept out of use with an error that names it and the key (it is admitted later when it
   * passes a check).
   *
   * @param capacityBytes the node's cache capacity, split evenly; 0 for 90 % of each dir's
   *     usable space (plus what the cache holds there)
   */
  public static SsdStore open(List<File> configuredDirs, long capacityBytes, FileIoProvider io,
      Set<PosixFilePermission> dirPermission, long timeoutMillis) {
    List<CacheDir> dirs = new ArrayList<>();
    SsdStore store = new SsdStore(dirs, io, dirPermission, capacityBytes, configuredDirs.size());
    for (File configured : configuredDirs) {
      CacheDir dir = new CacheDir(configured, new SsdLane(configured.getPath()));
      dirs.add(dir);
      try {
        await(dir.lane().submit(() -> {
          store.admit(dir);
          return null;
        }), timeoutMillis, dir);
      } catch (IOException e) {
        dir.fail(e.getMessage());
        LOG.error("mpCache SSD dir {} ({}) is out of use: {}", configured, DFS_MPCACHE_DIRS_KEY,
            e.getMessage());
      }
    }
    return store;
  }

  /**
   * Makes a dir ready for use, at start-up or when it is back: checks it can hold the cache,
   * makes its layout with the data-dir permission, empties its tmp dir, and sizes its quota
   * (with an automatic capacity, from what its device has now). Run on the dir's lane.
   */
  public void admit(CacheDir dir) throws IOException {
    checkUsable(dir);
    Layout layout = layout(dir);
    String found = layout == null ? null : layout.version();
    if (dir.identity() != null && (layout == null || !dir.identity().equals(layout.dirId()))) {
      // An unmounted device leaves its bare mount point, which passes every check.
      throw new IOException("its cache layout is gone (" + (layout == null ? "no " + LAYOUT_DIR
          : LAYOUT_DIR + "/" + VERSION_FILE + " names dir " + layout.dirId()) + ", expected dir "
          + dir.identity() + "): the device is not mounted, or was replaced; a new device is"
          + " taken into use when the DataNode restarts");
    }
    makeDirs(dir, dir.configured().toPath(), dir.inputRoot());
    makeDirs(dir, dir.configured().toPath(), dir.tmpRoot());
    // Made by an earlier version, perhaps with other permissions.
    restrict(dir, dir.layoutRoot());
    restrict(dir, dir.inputRoot());
    restrict(dir, dir.tmpRoot());
    if (found != null && !found.equals(LAYOUT_VERSION)) {
      // Another release's layout (a downgrade, or a later change of this one): never served.
      // Moved into tmp, which is emptied below, so a crash meanwhile leaves nothing to adopt.
      LOG.warn("mpCache SSD dir {}: its copies are in layout version {}, this release reads {};"
          + " they are discarded", dir.configured(), found, LAYOUT_VERSION);
      // A name of its own: a crash before VERSION is rewritten leaves the tree to discard again.
      Path discarded = dir.tmpRoot().resolve("discarded-layout-" + found.replaceAll("\\W", "_")
          + "-" + System.nanoTime());
      call(dir, () -> {
        io.move(null, dir.inputRoot(), discarded, StandardCopyOption.ATOMIC_MOVE);
        return null;
      });
      makeDirs(dir, dir.configured().toPath(), dir.inputRoot());
    }
    File cleanStop = dir.layoutRoot().resolve(CLEAN_STOP_FILE).toFile();
    boolean clean = call(dir, () -> io.exists(null, cleanStop));
    if (clean) {
      // Gone for good before any copy changes: a crash from now on is no clean stop.
      if (!call(dir, () -> io.deleteWithExistsCheck(null, cleanStop))) {
        throw new IOException("cannot delete " + cleanStop);
      }
      call(dir, () -> {
        io.dirSync(null, dir.layoutRoot().toFile());
        return null;
      });
    }
    dir.stoppedCleanly(clean);
    File versionFile = dir.layoutRoot().resolve(VERSION_FILE).toFile();
    String dirId = LAYOUT_VERSION.equals(found) && layout.dirId() != null ? layout.dirId()
        : UUID.randomUUID().toString();
    if (!LAYOUT_VERSION.equals(found) || !dirId.equals(layout.dirId())
        || !call(dir, () -> io.exists(null, versionFile))) {
      writeLayoutVersion(dir, dirId);
    }
    dir.identity(dirId);
    for (File leftover : call(dir, () -> io.listFiles(null, dir.tmpRoot().toFile()))) {
      call(dir, () -> io.fullyDelete(null, leftover));
    }
    long usable = call(dir, () -> dir.configured().getUsableSpace());
    dir.usableBytes(usable);
    dir.quotaBytes(capacityBytes > 0 ? capacityBytes / dirCount
        : (long) (AUTO_CAPACITY_FRACTION * (usable + call(dir, () -> treeBytes(dir.inputRoot())))));
  }

  /**
   * What {@code mpcache/VERSION} says of the dir's layout: its version ("unreadable" for an
   * unreadable file) and the id given to the dir when the layout was made, which tells this dir
   * from a bare mount point or another device (null when the file has none).
   */
  private record Layout(String version, String dirId) {
  }

  /** The dir's layout: null for no layout yet; "missing" for a layout without its file. */
  private Layout layout(CacheDir dir) throws IOException {
    File version = dir.layoutRoot().resolve(VERSION_FILE).toFile();
    if (!call(dir, () -> io.exists(null, dir.layoutRoot().toFile()))) {
      return null;
    }
    if (!call(dir, () -> io.exists(null, version))) {
      return new Layout("missing", null);
    }
    byte[] text = call(dir, () -> {
      try (FileInputStream in = io.getFileInputStream(null, version)) {
        return in.readAllBytes();
      }
    });
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(new String(text, StandardCharsets.ISO_8859_1)));
    } catch (IllegalArgumentException e) {
      return new Layout("unreadable", null);
    }
    String dirId = properties.getProperty(DIR_ID_KEY);
    return new Layout(properties.getProperty(VERSION_KEY, "unreadable").trim(),
        dirId == null ? null : dirId.trim());
  }

  /** Writes {@code mpcache/VERSION} whole or not at all (written aside, then moved). */
  private void writeLayoutVersion(CacheDir dir, String dirId) throws IOException {
    Path written = dir.tmpRoot().resolve(VERSION_FILE);
    byte[] text = ("# The layout of this mpCache dir (docs/architecture.md, On the SSD)\n"
        + VERSION_KEY + "=" + LAYOUT_VERSION + "\n" + DIR_ID_KEY + "=" + dirId + "\n")
        .getBytes(StandardCharsets.US_ASCII);
    call(dir, () -> {
      try (FileOutputStream out = io.getFileOutputStream(null, written.toFile())) {
        out.write(text);
        out.getChannel().force(true);
      }
      io.move(null, written, dir.layoutRoot().resolve(VERSION_FILE),
          StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return null;
    });
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
      throw new InterruptedIOException("interrupted while waiting for " + dir);
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

  /**
   * Fresh temporary files for a fill into {@code dir}, open for writing: data, then meta. They
   * are created as the DataNode creates block files (its umask decides their mode).
   */
  public FillFiles createFill(CacheDir dir, BlockKey key, long generationStamp)
      throws SsdIoException {
    String name = name(key.blockId(), generationStamp) + "_"
        + (ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    Path data = dir.tmpRoot().resolve(name);
    Path meta = dir.tmpRoot().resolve(name + META_SUFFIX);
    SsdLane lane = dir.lane();
    TrackedOutputStream dataOut = null;
    try {
      dataOut = new TrackedOutputStream(
          lane.track(() -> io.getFileOutputStream(null, data.toFile())), lane, io);
      TrackedOutputStream metaOut = new TrackedOutputStream(
          lane.track(() -> io.getFileOutputStream(null, meta.toFile())), lane, io);
      return new FillFiles(dir, data, meta, dataOut, metaOut);
    } catch (SsdIoException e) {
      IOUtils.closeStream(dataOut);
      discard(dir, data, meta);
      throw e;
    }
  }

  /**
   * Moves a fill's closed files into place under their unique name (meta first, so the data
   * file marks a complete copy) and returns the copy, verified at {@code now}.
   */
  public CachedCopy commit(FillFiles files, BlockKey key, long generationStamp, long length,
      long metaLength, long now) throws SsdIoException {
    CacheDir dir = files.dir();
    String subdir = Integer.toHexString((int) (key.blockId() & (SUBDIRS - 1)));
    Path data = dir.inputRoot().resolve(key.blockPoolId()).resolve(subdir)
        .resolve(files.data().getFileName());
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    SsdLane lane = dir.lane();
    lane.track(() -> {
      makeDirs(dir, dir.inputRoot(), data.getParent());
      io.move(null, files.meta(), meta, StandardCopyOption.ATOMIC_MOVE);
      io.move(null, files.data(), data, StandardCopyOption.ATOMIC_MOVE);
      return null;
    });
    return new CachedCopy(key, generationStamp, length, metaLength, dir, data, meta, now);
  }

  /**
   * Deletes files on the caller's thread; true when none of them is left. What cannot be deleted
   * is logged.
   */
  public boolean discard(CacheDir dir, Path... files) {
    boolean gone = true;
    for (Path file : files) {
      try {
        if (!dir.lane().track(() -> io.deleteWithExistsCheck(null, file.toFile()))) {
          gone = false;
        }
      } catch (IOException e) {
        LOG.warn("mpCache: could not delete {}: {}", file, e.toString());
        gone = false;
      }
    }
    return gone;
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
    checkUsable(dir);
    return new DirCheck(call(dir, () -> dir.configured().getUsableSpace()),
        call(dir, () -> io.exists(null, dir.inputRoot().toFile())));
  }

  /**
   * Every complete copy of the block pool in the dir, not yet verified; incomplete and
   * unexpected files are deleted.
   */
  public List<CachedCopy> scan(CacheDir dir, String blockPoolId) throws IOException {
    List<CachedCopy> copies = new ArrayList<>();
    Path poolRoot = dir.inputRoot().resolve(blockPoolId);
    if (!call(dir, () -> io.exists(null, poolRoot.toFile()))) {
      return copies;
    }
    restrict(dir, poolRoot);
    for (File subdir : call(dir, () -> io.listFiles(null, poolRoot.toFile()))) {
      restrict(dir, subdir.toPath());
      for (File file : call(dir, () -> io.listFiles(null, subdir))) {
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
      call(dir, () -> io.deleteWithExistsCheck(null, file.toFile()));
      return null;
    }
    Path data = isMeta ? file.resolveSibling(matcher.group()) : file;
    Path meta = data.resolveSibling(data.getFileName() + META_SUFFIX);
    if (isMeta) {
      if (!call(dir, () -> io.exists(null, data.toFile()))) {
        call(dir, () -> io.deleteWithExistsCheck(null, meta.toFile())); // an interrupted commit
      }
      return null; // a complete copy is loaded through its data file
    }
    if (!call(dir, () -> io.exists(null, meta.toFile()))) {
      LOG.warn("mpCache: deleting {}: its checksum file is missing", data);
      call(dir, () -> io.deleteWithExistsCheck(null, data.toFile()));
      return null;
    }
    BlockKey key = new BlockKey(blockPoolId, Long.parseLong(matcher.group(1)));
    return new CachedCopy(key, Long.parseLong(matcher.group(2)),
        call(dir, () -> data.toFile().length()), call(dir, () -> meta.toFile().length()), dir,
        data, meta, CachedCopy.NEVER);
  }

  /** Fails with what keeps the directory from holding the cache. */
  private void checkUsable(CacheDir dir) throws IOException {
    File configured = dir.configured();
    if (!call(dir, configured::exists)) {
      throw new IOException(
          "it does not exist (mpCache does not create SSD mount points; create the directory)");
    }
    if (!call(dir, configured::isDirectory)) {
      throw new IOException("it is not a directory");
    }
    File probe = new File(configured, ".mpcache-probe-" + ProcessHandle.current().pid());
    try {
      call(dir, () -> io.deleteWithExistsCheck(null, probe));
      if (!call(dir, () -> io.createFile(null, probe))) {
        throw new IOException("cannot create " + probe);
      }
      if (!call(dir, () -> io.delete(null, probe))) {
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
  private void makeDirs(CacheDir dir, Path base, Path target) throws IOException {
    Path relative = base.relativize(target);
    Path current = base;
    for (Path part : relative) {
      current = current.resolve(part);
      File made = current.toFile();
      if (!call(dir, () -> io.exists(null, made)) && call(dir, () -> io.mkdirs(null, made))) {
        restrict(dir, current);
      }
    }
  }

  /** Gives a dir of the layout the DataNode's data-dir permission. */
  private void restrict(CacheDir dir, Path path) throws IOException {
    if (dirPermission.isEmpty()) {
      return;
    }
    try {
      call(dir, () -> {
        if (!Files.getPosixFilePermissions(path).equals(dirPermission)) {
          Files.setPosixFilePermissions(path, dirPermission);
        }
        return null;
      });
    } catch (SsdIoException e) {
      if (e.getCause() instanceof UnsupportedOperationException) {
        return; // not a POSIX file system: left as created
      }
      if (e.getCause() instanceof AccessDeniedException) {
        throw new IOException("cannot set the permissions of " + path + ": " + e.getCause());
      }
      throw e;
    }
  }

  /** One call to the dir's device, watched by its lane. */
  private static <T> T call(CacheDir dir, IoOp<T> op) throws SsdIoException {
    return dir.lane().track(op);
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

  /**
   * Stops the dirs' lanes, first noting in each dir in use that the cache stopped cleanly
   * ({@code mpcache/CLEAN}, waiting at most {@code timeoutMillis} for each): its copies were
   * forced to the device before they were committed, and are taken in at the next start without
   * being read. Not in a dir whose copies are not all trusted: one admitted after a crash whose
   * block pools were not all taken in (verified) since, or one {@code deleting} still has copies
   * of (its deletions were queued, the queue behind this note runs first). After any other stop
   * every copy is verified before it serves.
   */
  public void close(long timeoutMillis, Predicate<CacheDir> deleting) {
    for (CacheDir dir : dirs) {
      if (dir.healthy()) {
        try {
          await(dir.lane().submit(() -> {
            if (!deleting.test(dir) && dir.copiesTrusted(blockPools(dir))) {
              markCleanStop(dir);
            }
            return null;
          }), timeoutMillis, dir);
        } catch (IOException e) {
          LOG.warn("mpCache: cannot note the clean stop in SSD dir {}; its copies are verified at"
              + " the next start: {}", dir, e.getMessage());
        }
      }
    }
    dirs.forEach(dir -> dir.lane().shutdown());
  }

  /** The block pools with a dir in the dir's layout. */
  private List<String> blockPools(CacheDir dir) throws IOException {
    List<String> pools = new ArrayList<>();
    for (File pool : call(dir, () -> io.listFiles(null, dir.inputRoot().toFile()))) {
      pools.add(pool.getName());
    }
    return pools;
  }

  private void markCleanStop(CacheDir dir) throws IOException {
    File marker = dir.layoutRoot().resolve(CLEAN_STOP_FILE).toFile();
    call(dir, () -> {
      try (FileOutputStream out = io.getFileOutputStream(null, marker)) {
        io.sync(null, out);
      }
      io.dirSync(null, dir.layoutRoot().toFile());
      return null;
    });
  }
}
