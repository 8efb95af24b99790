package org.mpcache.locality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Host names of their own for the nodes of one machine: {@code mphost<i>} is 127.0.1.i, written
 * to the hosts file this module's test JVMs resolve names with ({@code -Djdk.net.hosts.file},
 * set in the pom and passed on to task JVMs). Linux routes all of 127/8 to the loopback device.
 * Shared with mpcache-bench through this module's test jar.
 */
public final class LoopbackHosts {
  public static final String FILE_PROPERTY = "jdk.net.hosts.file";
  /** Nodes the file names. */
  public static final int MAX_NODES = 9;

  private LoopbackHosts() {
  }

  /** Node {@code i}'s host name, i from 1. */
  public static String host(int i) {
    return "mphost" + i;
  }

  /** Writes the hosts file (localhost, this machine's name, the nodes) unless it says that. */
  public static synchronized void ensureWritten() throws IOException {
    String file = System.getProperty(FILE_PROPERTY);
    if (file == null) {
      throw new IllegalStateException("the test JVM has no -D" + FILE_PROPERTY
          + " (set in the module's surefire argLine)");
    }
    Path path = Path.of(file);
    List<String> lines = new ArrayList<>();
    lines.add("127.0.0.1 localhost " + machineName());
    for (int i = 1; i <= MAX_NODES; i++) {
      lines.add("127.0.1." + i + " " + host(i));
    }
    if (Files.exists(path) && Files.readAllLines(path, StandardCharsets.US_ASCII).equals(lines)) {
      return;
    }
    Files.createDirectories(path.getParent());
    Path written = Files.createTempFile(path.getParent(), "hosts", ".tmp");
    Files.write(written, lines, StandardCharsets.US_ASCII);
    Files.move(written, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** The option that makes a task JVM resolve names as this one does. */
  public static String jvmOption() {
    return "-D" + FILE_PROPERTY + "=" + System.getProperty(FILE_PROPERTY);
  }

  /** The kernel's host name, read without a lookup (the lookup needs this file). */
  private static String machineName() throws IOException {
    Path kernel = Path.of("/proc/sys/kernel/hostname");
    if (Files.isReadable(kernel)) {
      return Files.readString(kernel, StandardCharsets.US_ASCII).trim();
    }
    String env = System.getenv("HOSTNAME");
    if (env == null || env.isBlank()) {
      throw new IOException("cannot tell this machine's host name for " + FILE_PROPERTY);
    }
    return env.trim();
  }
}
