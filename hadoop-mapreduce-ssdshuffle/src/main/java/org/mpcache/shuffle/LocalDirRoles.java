package org.mpcache.shuffle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;

import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's local dirs (its application's dir on each NodeManager local dir, as YarnChild lists
 * them in {@code mapreduce.cluster.local.dir}) split by device: a dir under a NodeManager local
 * dir that holds the cache slave's address file ({@link LocalizedSpaceProtocol#ADDRESS_FILE}) is
 * on the SSD, and the file says where that slave listens.
 *
 * @param ssd application dirs on the SSD
 * @param hdd the other application dirs
 * @param slaveAddress "host:port" of the slave owning the SSD dirs, or null when there are none
 */
public record LocalDirRoles(List<String> ssd, List<String> hdd, String slaveAddress) {
  /** Levels from an application dir up to its NodeManager local dir: usercache/u/appcache/app. */
  private static final int APP_DIR_DEPTH = 4;
  /** More than a "host:port" takes; what a planted file holds beyond it is not read. */
  static final int MAX_ADDRESS_BYTES = 512;
  /** A read of a regular file this small takes far less on a healthy local disk. */
  static final long READ_TIMEOUT_MILLIS = 2_000;
  private static final Logger LOG = LoggerFactory.getLogger(LocalDirRoles.class);
  /**
   * Reads run here: a file seen regular and then swapped for a FIFO before it is opened (a task
   * may write the NodeManager's local dirs) would block its open for good; that holds one of
   * these threads, never the caller.
   */
  private static final ExecutorService READERS = Executors.newCachedThreadPool(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-address-read-%d")
          .build());

  public LocalDirRoles {
    ssd = List.copyOf(ssd);
    hdd = List.copyOf(hdd);
  }

  public static LocalDirRoles of(String[] localDirs) {
    List<String> ssd = new ArrayList<>();
    List<String> hdd = new ArrayList<>();
    String address = null;
    for (String dir : localDirs) {
      String found = slaveAddress(Paths.get(dir));
      if (found != null && (address == null || address.equals(found))) {
        address = found;
        ssd.add(dir);
      } else {
        hdd.add(dir);
      }
    }
    return new LocalDirRoles(ssd, hdd, address);
  }

  /** The address in the slave's file at or above {@code dir}, or null. */
  private static String slaveAddress(Path dir) {
    Path candidate = dir.toAbsolutePath();
    for (int up = 0; up <= APP_DIR_DEPTH && candidate != null; up++) {
      if (holdsAddressFile(candidate)) {
        return addressIn(candidate);
      }
      candidate = candidate.getParent();
    }
    return null;
  }

  /**
   * Whether {@code dir} itself holds the slave's address file, a regular file with something in
   * it, told without opening it or following a link: tasks may write the NodeManager's local
   * dirs (under its default container executor) and plant a FIFO there, whose open blocks.
   */
  static boolean holdsAddressFile(Path dir) {
    try {
      BasicFileAttributes attrs = Files.readAttributes(
          dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      return attrs.isRegularFile() && attrs.size() > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The address in the slave's file in {@code dir} itself, or null: no file, an empty one, one
   * being rewritten right now or unreadable, or anything but a regular file (its dir is then used
   * as an HDD dir). Opened only once it was seen a regular file, never through a link, and read
   * to at most {@link #MAX_ADDRESS_BYTES}.
   */
  static String addressIn(Path dir) {
    if (!holdsAddressFile(dir)) {
      return null;
    }
    Path file = dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE);
    Future<String> read = READERS.submit(() -> read(file));
    try {
      return read.get(READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // Swapped for a FIFO since it was looked at: the reading thread waits on it for good.
      read.cancel(true);
      LOG.warn("mpCache: {} could not be read in {} ms (something other than the cache slave's"
          + " file was put there); its dir is used as an HDD dir", file, READ_TIMEOUT_MILLIS);
      return null;
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The trimmed text of {@code file}, at most {@link #MAX_ADDRESS_BYTES}; null when empty. */
  private static String read(Path file) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(MAX_ADDRESS_BYTES);
    try (SeekableByteChannel in = Files.newByteChannel(file, StandardOpenOption.READ,
        LinkOption.NOFOLLOW_LINKS)) {
      while (bytes.hasRemaining() && in.read(bytes) >= 0) {
        // until the file or the buffer ends
      }
    }
    String address = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8)
        .trim();
    return address.isEmpty() ? null : address;
  }
}
