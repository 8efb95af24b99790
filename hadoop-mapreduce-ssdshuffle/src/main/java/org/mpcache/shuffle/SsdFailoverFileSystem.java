package org.mpcache.shuffle;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's local file system for a task's intermediate files, on which a write that finds the SSD
 * full goes on on an HDD local dir instead of failing the attempt (stock Hadoop turns the error
 * into an {@link FSError}, which fails the task). The file moves whole: what was written to the
 * SSD is copied to the same path under the HDD application dir with the most room, the SSD's
 * part is deleted, and the write goes on there. The task keeps naming the file by its SSD path:
 * every path passes through {@link Raw#pathToFile}, which maps a moved file to where it went, for
 * the task's readers, renames and deletes; the NodeManager's shuffle service, which searches
 * every local dir for a map output by its relative path, finds it on the HDD.
 *
 * <p>The hooks hand it to the map output buffer and the merge manager, in a copy of the task's
 * configuration that also reaches the job's combiner: the SSD can fill while a task writes when
 * files no task asked room for, a task writing more than it asked for, or another process take
 * the room a grant counted on (docs/architecture.md).
 */
public class SsdFailoverFileSystem extends LocalFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(SsdFailoverFileSystem.class);
  /**
   * Files moved to HDD in this JVM, by their SSD path: shared by every instance, as the task's
   * code opens several (one for each {@code FileSystem.getLocal} of a configuration that does
   * not cache it).
   */
  private static final Map<String, File> MOVED = new ConcurrentHashMap<>();
  /**
   * The roles of the task's local dirs, by {@link #dirsKey}: told once, by the hooks' output
   * files, so that every instance sees the SSD dirs those files are placed on.
   */
  private static final Map<String, LocalDirRoles> ROLES = new ConcurrentHashMap<>();
  private static final String LOCAL_FS_KEY = "fs.file.impl";
  private static final String LOCAL_FS_KEY_NO_CACHE = "fs.file.impl.disable.cache";

  public SsdFailoverFileSystem() {
    super(new Raw());
  }

  /**
   * A copy of a task's configuration whose local file system is this one, made anew for each
   * {@code FileSystem.getLocal} (the task's cached one is Hadoop's); the configuration itself when
   * the job names a local file system of its own, which is left as it is.
   */
  static JobConf forTask(JobConf job, LocalDirRoles roles) {
    ROLES.put(dirsKey(job), roles);
    String named = job.get(LOCAL_FS_KEY);
    if (named != null && !named.equals(LocalFileSystem.class.getName())
        && !named.equals(SsdFailoverFileSystem.class.getName())) {
      LOG.info("mpCache: the job's local file system is {}: a write that finds the SSD full "
          + "fails as on stock Hadoop", named);
      return job;
    }
    JobConf failover = new JobConf(job);
    failover.setClass(LOCAL_FS_KEY, SsdFailoverFileSystem.class, FileSystem.class);
    failover.setBoolean(LOCAL_FS_KEY_NO_CACHE, true);
    return failover;
  }

  /** The task's local dirs, as a key of {@link #ROLES}. */
  private static String dirsKey(Configuration conf) {
    return String.join(",", conf.getTrimmedStrings(MRConfig.LOCAL_DIR));
  }

  /** Whether {@code error} says a device is full: ENOSPC, or EDQUOT for a quota. */
  static boolean isNoSpace(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && (message.contains("No space left on device")
          || message.contains("Disk quota exceeded"))) {
        return true;
      }
    }
    return false;
  }

  /** The raw local file system that moves files off a full SSD. */
  static final class Raw extends RawLocalFileSystem {
    private LocalDirRoles roles = new LocalDirRoles(List.of(), List.of(), null);

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
      super.initialize(uri, conf);
      roles = ROLES.computeIfAbsent(dirsKey(conf),
          dirs -> LocalDirRoles.of(conf.getTrimmedStrings(MRConfig.LOCAL_DIR)));
    }

    @Override
    public File pathToFile(Path path) {
      File named = super.pathToFile(path);
      File moved = MOVED.get(named.getAbsolutePath());
      return moved == null ? named : moved;
    }

    @Override
    protected OutputStream createOutputStreamWithMode(Path f, boolean append,
        FsPermission permission) throws IOException {
      File file = super.pathToFile(f);
      String ssdDir = ssdDirOf(file);
      if (ssdDir == null) {
        return super.createOutputStreamWithMode(f, append, permission);
      }
      File moved = MOVED.get(file.getAbsolutePath());
      if (moved != null) {
        if (append) {
          return super.createOutputStreamWithMode(f, true, permission);
        }
        // A new file of the name starts on the SSD again.
        MOVED.remove(file.getAbsolutePath());
        Files.deleteIfExists(moved.toPath());
      }
      try {
        return new Failover(f, file, ssdDir, permission,
            super.createOutputStreamWithMode(f, append, permission),
            append ? file.length() : 0);
      } catch (IOException e) {
        if (!isFull(e, ssdDir, 1) || roles.hdd().isEmpty()) {
          throw e;
        }
        move(file, ssdDir, append ? file.length() : 0);
        return super.createOutputStreamWithMode(f, true, permission);
      }
    }

    /**
     * Whether {@code error} came of a full SSD: it says so, or (its words may be in another
     * language) the SSD dir has less than {@code bytes} usable.
     */
    private static boolean isFull(Throwable error, String ssdDir, long bytes) {
      return isNoSpace(error) || new File(ssdDir).getUsableSpace() < Math.max(1, bytes);
    }

    /**
     * A moved file renamed to a name on the SSD stays on its HDD (as a map output committed
     * from its temporary name); the name maps to it.
     */
    @Override
    public boolean rename(Path src, Path dst) throws IOException {
      String sourceName = super.pathToFile(src).getAbsolutePath();
      File source = pathToFile(src);
      File named = super.pathToFile(dst);
      String ssdDir = ssdDirOf(named);
      File target = ssdDir == null || ssdDirOf(source) != null ? null
          : besideSource(named, ssdDir, source);
      if (target != null) {
        // A rename replaces what has the name: its file on the SSD goes first.
        Files.deleteIfExists(named.toPath());
        if (source.renameTo(target)) {
          MOVED.remove(sourceName);
          MOVED.put(named.getAbsolutePath(), target);
          return true;
        }
      }
      boolean renamed = super.rename(src, dst);
      if (renamed) {
        MOVED.remove(sourceName);
      }
      return renamed;
    }

    @Override
    public boolean delete(Path p, boolean recursive) throws IOException {
      boolean deleted = super.delete(p, recursive);
      if (deleted) {
        String name = super.pathToFile(p).getAbsolutePath();
        MOVED.keySet().removeIf(moved -> moved.equals(name) || moved.startsWith(name + "/"));
      }
      return deleted;
    }

    /** The SSD application dir holding {@code file}, or null when it is on no SSD dir. */
    private String ssdDirOf(File file) {
      return dirHolding(roles.ssd(), file);
    }

    /** The one of {@code dirs} that holds {@code file}, or null. */
    private static String dirHolding(List<String> dirs, File file) {
      String path = file.getAbsolutePath();
      for (String dir : dirs) {
        if (path.startsWith(withSlash(dir))) {
          return dir;
        }
      }
      return null;
    }

    /**
     * The same path as {@code ssdFile} under the HDD application dir that holds {@code source},
     * its parent made (a rename stays on its device); null when no HDD dir holds it.
     */
    private File besideSource(File ssdFile, String ssdDir, File source) throws IOException {
      String hddDir = dirHolding(roles.hdd(), source);
      return hddDir == null ? null : under(new File(hddDir), ssdFile, ssdDir);
    }

    /** {@code dir} as the start of the paths under it. */
    private static String withSlash(String dir) {
      return dir.endsWith("/") ? dir : dir + "/";
    }

    /** The same path as {@code ssdFile} under {@code hddDir}, its parent made. */
    private static File under(File hddDir, File ssdFile, String ssdDir) throws IOException {
      File target = new File(hddDir,
          ssdFile.getAbsolutePath().substring(withSlash(ssdDir).length()));
      Files.createDirectories(target.getParentFile().toPath());
      return target;
    }

    /**
     * The same path under the HDD application dir with the most room for {@code bytes}, its
     * parent made; null when no HDD dir has the room.
     */
    private File onHdd(File ssdFile, String ssdDir, long bytes) throws IOException {
      File roomiest = null;
      for (String dir : roles.hdd()) {
        File candidate = new File(dir);
        if (candidate.getUsableSpace() > bytes && (roomiest == null
            || candidate.getUsableSpace() > roomiest.getUsableSpace())) {
          roomiest = candidate;
        }
      }
      return roomiest == null ? null : under(roomiest, ssdFile, ssdDir);
    }

    /**
     * Moves the first {@code written} bytes of {@code ssdFile} to HDD and notes where they went;
     * the SSD's file is deleted.
     */
    private File move(File ssdFile, String ssdDir, long written) throws IOException {
      File target = onHdd(ssdFile, ssdDir, written);
      if (target == null) {
        throw new IOException("the SSD is full and no HDD local dir of " + roles.hdd()
            + " has room for " + ssdFile);
      }
      try (FileChannel out = FileChannel.open(target.toPath(), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        if (ssdFile.exists()) {
          try (FileChannel in = new FileInputStream(ssdFile).getChannel()) {
            long copied = 0;
            while (copied < written) {
              long step = in.transferTo(copied, written - copied, out);
              if (step <= 0) {
                throw new IOException("only " + copied + " of the " + written + " bytes "
                    + "written to " + ssdFile + " could be read back");
              }
              copied += step;
            }
          }
        } else if (written > 0) {
          throw new FileNotFoundException(ssdFile + " is gone: its " + written
              + " bytes written cannot be moved");
        }
      }
      // Readers search the local dirs for a name in turn: the SSD's part must not stay.
      if (ssdFile.exists() && !ssdFile.delete()) {
        Files.deleteIfExists(target.toPath());
        throw new IOException("the SSD is full and " + ssdFile + " cannot be deleted to go on"
            + " on the HDD");
      }
      MOVED.put(ssdFile.getAbsolutePath(), target);
      SsdFailoverFileSystem.LOG.warn(
          "mpCache: the SSD is full; {} goes on on the HDD as {} ({} bytes moved)", ssdFile,
          target, written);
      return target;
    }

    /** A stream to a file on the SSD that moves it to HDD when the SSD is full. */
    private final class Failover extends OutputStream implements Syncable {
      private final Path named;
      private final File ssdFile;
      private final String ssdDir;
      private final FsPermission permission;
      private OutputStream out;
      private long written;
      private boolean moved;

      Failover(Path named, File ssdFile, String ssdDir, FsPermission permission,
          OutputStream out, long written) {
        this.named = named;
        this.ssdFile = ssdFile;
        this.ssdDir = ssdDir;
        this.permission = permission;
        this.out = out;
        this.written = written;
      }

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] bytes, int off, int len) throws IOException {
        try {
          out.write(bytes, off, len);
        } catch (IOException | FSError e) {
          if (moved || !isFull(e, ssdDir, len) || roles.hdd().isEmpty()) {
            throw e;
          }
          moveToHdd();
          out.write(bytes, off, len);
        }
        written += len;
      }

      /** Closes the SSD's stream, moves what it took, and opens the HDD file after it. */
      private void moveToHdd() throws IOException {
        moved = true;
        try {
          out.close();
        } catch (IOException | FSError e) {
          SsdFailoverFileSystem.LOG.debug("mpCache: closing {} on a full SSD: {}", ssdFile,
              e.toString());
        }
        move(ssdFile, ssdDir, written);
        out = Raw.super.createOutputStreamWithMode(named, true, permission);
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        out.close();
      }

      @Override
      public void hflush() throws IOException {
        flush();
      }

      @Override
      public void hsync() throws IOException {
        if (out instanceof Syncable syncable) {
          syncable.hsync();
        }
      }
    }
  }
}
