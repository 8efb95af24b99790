package org.mpcache.tools;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Ports for servers that embedded clusters (tests, benchmarks) must configure before they start,
 * like the cache master's address. A port found free by binding port 0 comes from the kernel's
 * ephemeral range, where the NameNode's own servers (bound to port 0 while the cluster starts)
 * can take it first; these ports are drawn below that range instead.
 */
public final class FreePorts {
  private static final int LOWEST = 10_000;
  private static final int DEFAULT_EPHEMERAL_LOW = 32_768;
  private static final int ATTEMPTS = 100;

  private FreePorts() {
  }

  /** A loopback port free now and outside the ephemeral range. */
  public static int outsideEphemeralRange() throws IOException {
    int high = ephemeralLow();
    if (high <= LOWEST) {
      throw new IOException("the ephemeral port range starts at " + high
          + " (net.ipv4.ip_local_port_range): no room below it above " + LOWEST);
    }
    SplittableRandom random = new SplittableRandom();
    for (int i = 0; i < ATTEMPTS; i++) {
      int port = random.nextInt(LOWEST, high);
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress("127.0.0.1", port));
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no free port between " + LOWEST + " and " + high + " after "
        + ATTEMPTS + " attempts");
  }

  private static int ephemeralLow() {
    try {
      // readAllLines, not readString: procfs files report size 0 and readString trusts it
      String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
          .get(0).trim();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return DEFAULT_EPHEMERAL_LOW;
    }
  }
}
