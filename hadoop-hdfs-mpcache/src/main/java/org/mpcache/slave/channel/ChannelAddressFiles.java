package org.mpcache.slave.channel;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.mpcache.protocol.LocalizedSpaceProtocol;

/**
 * The files that tell task JVMs where the localized-space channel listens: one
 * ({@link LocalizedSpaceProtocol#ADDRESS_FILE}) in each localized dir. Those dirs are the
 * NodeManager's local dirs, which tasks may write (under the default container executor every
 * task runs as the NodeManager's user), so whatever a task plants at these names, a link or a
 * FIFO, is never followed or opened: the file is created new beside its name without following
 * links ({@code O_CREAT|O_EXCL|O_NOFOLLOW}) and renamed over the name, which replaces a link, not
 * what it points to. A file is taken for the one this slave wrote only by its identity (device
 * and inode), read without opening it.
 */
public final class ChannelAddressFiles {
  private static final String WRITTEN_SUFFIX = ".tmp";

  private final List<Path> dirs;
  private final byte[] content;
  /** The identity of the file written in each dir. */
  private final Map<Path, Object> written = new ConcurrentHashMap<>();

  public ChannelAddressFiles(List<Path> dirs, String address) {
    this.dirs = List.copyOf(dirs);
    this.content = (address + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes the file in each dir where the one there is not the one this slave wrote (the
   * NodeManager cleans its local dirs at start-up; a task may have replaced it).
   *
   * @throws IOException naming the dir, for the first dir it cannot be written to; the others
   *     are still written
   */
  public void publish() throws IOException {
    IOException first = null;
    for (Path dir : dirs) {
      try {
        if (!isIntact(dir)) {
          write(dir);
        }
      } catch (IOException e) {
        if (first == null) {
          first = new IOException("cannot write " + dir.resolve(LocalizedSpaceProtocol
              .ADDRESS_FILE) + ": " + e, e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private boolean isIntact(Path dir) throws IOException {
    Object identity = written.get(dir);
    if (identity == null) {
      return false;
    }
    try {
      BasicFileAttributes found = Files.readAttributes(
          dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), BasicFileAttributes.class,
          NOFOLLOW_LINKS);
      return found.isRegularFile() && identity.equals(found.fileKey())
          && found.size() == content.length;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** Writes the file whole (a task never reads half of it) under its name. */
  private void write(Path dir) throws IOException {
    Path name = dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
    Path fresh = dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE + WRITTEN_SUFFIX);
    Files.deleteIfExists(fresh); // a link is deleted, not what it points to
    try (SeekableByteChannel out = Files.newByteChannel(fresh, CREATE_NEW, WRITE,
        NOFOLLOW_LINKS)) {
      ByteBuffer bytes = ByteBuffer.wrap(content);
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
    }
    Object identity = Files.readAttributes(fresh, BasicFileAttributes.class, NOFOLLOW_LINKS)
        .fileKey();
    Files.move(fresh, name, StandardCopyOption.ATOMIC_MOVE);
    written.put(dir, Objects.requireNonNull(identity, "no file identity on this file system"));
  }

  /** Deletes the files this slave wrote, so that no task looks for a channel that is gone. */
  public void withdraw() throws IOException {
    for (Path dir : dirs) {
      if (isIntact(dir)) {
        Files.deleteIfExists(dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE));
      }
    }
  }
}
