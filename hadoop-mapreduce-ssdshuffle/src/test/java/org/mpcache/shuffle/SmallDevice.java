package org.mpcache.shuffle;

import java.io.File;
import java.io.IOException;

import org.junit.jupiter.api.Assumptions;

/**
 * A real small file system mounted for a test (a tmpfs of a given size), so that writes find a
 * device full as on a full SSD. Mounting needs root: without it the test is skipped, saying so.
 */
final class SmallDevice implements AutoCloseable {
  private final File mountPoint;

  private SmallDevice(File mountPoint) {
    this.mountPoint = mountPoint;
  }

  /** Mounts a tmpfs of {@code megabytes} at {@code mountPoint}, or skips the test. */
  static SmallDevice mount(File mountPoint, int megabytes) throws IOException,
      InterruptedException {
    SmallDevice device = tryMount(mountPoint, megabytes);
    Assumptions.assumeTrue(device != null, WHY_NOT);
    return device;
  }

  /** The same, or null when it cannot be mounted. */
  static SmallDevice tryMount(File mountPoint, int megabytes) throws IOException,
      InterruptedException {
    if (!mountPoint.isDirectory() && !mountPoint.mkdirs()) {
      throw new IOException("cannot create " + mountPoint);
    }
    // What a run killed before its end left mounted there.
    while (unmount(mountPoint)) {
      // until nothing is mounted there
    }
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m",
        "tmpfs", mountPoint.getAbsolutePath()).redirectErrorStream(true).start();
    mount.getInputStream().readAllBytes();
    return mount.waitFor() == 0 ? new SmallDevice(mountPoint) : null;
  }

  static final String WHY_NOT = "a full SSD is a small tmpfs mounted for the test, which needs"
      + " root";

  /** Fills what is left of the device with a file; returns its bytes. */
  long fill(String name) throws IOException {
    File filler = new File(mountPoint, name);
    byte[] chunk = new byte[64 << 10];
    long written = 0;
    try (java.io.FileOutputStream out = new java.io.FileOutputStream(filler, true)) {
      while (true) {
        out.write(chunk);
        written += chunk.length;
      }
    } catch (IOException e) {
      if (!SsdFailoverFileSystem.isNoSpace(e)) {
        throw e;
      }
    }
    return written;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (!unmount(mountPoint)) {
      throw new IOException("could not unmount the test's tmpfs at " + mountPoint);
    }
  }

  /** Lazily, so that a file still open elsewhere does not keep it mounted; false: none there. */
  private static boolean unmount(File mountPoint) throws IOException, InterruptedException {
    Process umount = new ProcessBuilder("umount", "-l", mountPoint.getAbsolutePath())
        .redirectErrorStream(true).start();
    umount.getInputStream().readAllBytes();
    return umount.waitFor() == 0;
  }
}
