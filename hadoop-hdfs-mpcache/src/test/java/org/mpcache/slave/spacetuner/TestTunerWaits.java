package org.mpcache.slave.spacetuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.conf.LocalizedSettings;
import org.mpcache.protocol.LocalizedSpaceProtocol.Reservation;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.slave.inputcache.BlockKey;
import org.mpcache.slave.inputcache.CacheFixture;
import org.mpcache.slave.inputcache.DelegatingArbiter;
import org.mpcache.slave.inputcache.FakeReplicas;

/** The tuner's requests that wait for input data to leave, and its scans of the localized dirs. */
@Timeout(60)
class TestTunerWaits {
  private static final int UNIT = 256 << 10;

  /** A master-like arbiter: it frees room later, through its own channel; it counts the asks. */
  private static final class DeferringArbiter extends DelegatingArbiter {
    final AtomicInteger asked = new AtomicInteger();

    @Override
    public List<BlockKey> shrinkVictims(long excessBytes) {
      asked.incrementAndGet();
      return List.of();
    }
  }

  @Test
  void aReservationWaitingForEvictionsAsksTheArbiterOnce() throws Exception {
    DeferringArbiter arbiter = new DeferringArbiter();
    CacheFixture.Settings settings = CacheFixture.settings();
    settings.capacityBytes = 10L * UNIT;
    settings.arbiter = arbiter;
    try (CacheFixture fixture = settings.open("tuner-waits")) {
      List<BlockKey> held = List.of(fixture.replicas.add(1, UNIT - 10_000),
          fixture.replicas.add(2, UNIT - 10_000), fixture.replicas.add(3, UNIT - 10_000),
          fixture.replicas.add(4, UNIT - 10_000), fixture.replicas.add(5, UNIT - 10_000),
          fixture.replicas.add(6, UNIT - 10_000), fixture.replicas.add(7, UNIT - 10_000));
      for (BlockKey key : held) {
        fixture.fill(key);
      }
      File localized = new File(fixture.ssd.getParentFile(), fixture.ssd.getName() + "-local");
      // 4 input + 4 pool + 2 localized units; the 7 copies fill the input cache and 3 pool units.
      // Scans every 20 ms: none may hand the waiting request's units back meanwhile.
      SpaceTuner tuner = SpaceTuner.start(new LocalizedSettings(List.of(localized),
          new InetSocketAddress("127.0.0.1", 0), 0.4, 0.2, 0.5, 10_000, 5_000, 20, null, 1, 1, UNIT,
          10_000),
          fixture.cache, UNIT, new Configuration());
      try {
        CompletableFuture<Reservation> reservation = CompletableFuture.supplyAsync(() -> {
          try {
            return tuner.reserve("attempt_1_0001_m_000000_0", 4L * UNIT);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        GenericTestUtils.waitFor(() -> arbiter.asked.get() > 0, 5, 10_000, "the arbiter asked");
        // The arbiter takes its time (a master answers on a heartbeat), then evicts two.
        Thread.sleep(300); // lets a polling tuner, or scans, show themselves
        assertEquals(6L * UNIT, fixture.cache.capacityBytes(),
            "the two pool units stay lent while the request waits: the master sees them");
        fixture.cache.evict(FakeReplicas.POOL, new long[] {1, 2});

        assertTrue(reservation.get().granted());
        assertEquals(1, arbiter.asked.get(), "one ask for the whole wait, not one per poll");
      } finally {
        tuner.close();
      }
    }
  }

  /**
   * Tasks write the localized dirs: a link out of them is neither entered nor counted, and names
   * made up to look like attempts take no more than the bound, while the attempts the slave
   * knows are still counted each on its own.
   */
  @Test
  void aScanStaysInItsDirsAndKeepsABoundedNumberOfNames() throws IOException {
    Path dir = GenericTestUtils.getTestDir("scan-bounds-" + System.nanoTime()).toPath();
    Path outside = GenericTestUtils.getTestDir("scan-outside-" + System.nanoTime()).toPath()
        .resolve("attempt_9_0009_m_000000_0");
    Files.createDirectories(outside);
    Files.write(outside.resolve("file.out"), new byte[5000]);
    Path appDir = dir.resolve("usercache/u/appcache/application_1_0001");
    Files.createDirectories(appDir);
    Files.createSymbolicLink(appDir.resolve("link"), outside.getParent());
    String known = "attempt_1_0001_r_000000_0";
    for (int i = 0; i < 20; i++) {
      Files.write(Files.createDirectories(appDir.resolve("attempt_1_0001_m_0000" + (10 + i)
          + "_0")).resolve("file.out"), new byte[10]);
    }
    Files.write(Files.createDirectories(appDir.resolve(known)).resolve("file.out"), new byte[7]);
    // Only the slave's own address files, at the top, are left out: a task's file of that name
    // deeper down is counted.
    Files.write(dir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), new byte[100]);
    Files.write(appDir.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), new byte[3]);

    LocalizedScan scan = LocalizedScan.of(List.of(dir), LocalizedSpaceProtocol.ADDRESS_FILE,
        Set.of(known), 5);
    Map<String, Long> counted = scan.bytesByAttempt();
    assertEquals(7L, counted.get(known), "a known attempt is counted on its own");
    assertEquals(5 + 1 + 1, counted.size(), "5 others, the known one, and no attempt");
    assertEquals(15L * 10 + 3, counted.get(LocalizedLedger.NO_ATTEMPT),
        "the rest, as no attempt's");
    assertEquals(20L * 10 + 7 + 3, counted.values().stream().mapToLong(Long::longValue).sum(),
        "nothing behind the link");
  }

  @Test
  void aScanSkipsPathsItMayNotReadAndCountsTheRest() throws IOException {
    Path dir = GenericTestUtils.getTestDir("unreadable-" + System.nanoTime()).toPath();
    Path attempt = dir.resolve("usercache/u/appcache/application_1_0001/output"
        + "/attempt_1_0001_m_000000_0");
    Files.createDirectories(attempt);
    Files.write(attempt.resolve("file.out"), new byte[1000]);
    Path secret = dir.resolve("usercache/other");
    Files.createDirectories(secret);

    // Running as root here, no path is unreadable: the scan is handed the failure the JDK gives
    // for a directory the DataNode's user may not open.
    LocalizedScan scan = LocalizedScan.of(List.of(dir), LocalizedSpaceProtocol.ADDRESS_FILE,
        Set.of());
    scan.skipped(secret, new AccessDeniedException(secret.toString()));
    assertEquals(List.of(secret), scan.unreadable());
    assertEquals(1000L, scan.bytesByAttempt().get("attempt_1_0001_m_000000_0"));
    scan.counted(dir.relativize(attempt.resolve("file.out")), 1000);
    assertEquals(2000L, scan.bytesByAttempt().get("attempt_1_0001_m_000000_0"));
  }
}
