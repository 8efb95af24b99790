package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hadoop.ipc.StandbyException;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.mpcache.conf.CachedPaths;
import org.mpcache.conf.MasterSettings;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.arbitrator.TestReplaceArbitrator;
import org.mpcache.protocol.AdmissionAnswer.Verdict;
import org.mpcache.protocol.SlaveUsage;

/**
 * The master's lifecycle in its NameNode: a call that fails inside the master drops it, and the
 * next call finds a fresh master recovering from the slaves, while the NameNode's own work never
 * sees the failure; standby and switch-off drop it too.
 */
class TestActiveMaster {
  private static final long BLOCK = 1024;
  private static final long[] NONE = new long[0];

  /**
   * One data set of 10 blocks; resolving a block throws {@link #failure} when set, once it may
   * go on ({@link #mayGoOn}), and only once ({@link #failing} says it began).
   */
  private static final class FailingNamespace extends TestReplaceArbitrator.FakeNamespace {
    volatile Throwable failure;
    final CountDownLatch failing = new CountDownLatch(1);
    volatile CountDownLatch mayGoOn = new CountDownLatch(0);

    FailingNamespace() {
      super(Set.of("a"), 10);
    }

    @Override
    public BlockOwner[] ownersOf(long[] blockIds) {
      Throwable thrown = failure;
      if (thrown != null) {
        failure = null;
        failing.countDown();
        try {
          mayGoOn.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (thrown instanceof RuntimeException e) {
          throw e;
        }
        throw (Error) thrown;
      }
      return super.ownersOf(blockIds);
    }
  }

  private final FailingNamespace namespace = new FailingNamespace();
  private final MasterCounter.Values counters = new MasterCounter.Values();
  private final AtomicInteger made = new AtomicInteger();
  private volatile boolean active = true;
  private final ActiveMaster master = new ActiveMaster("nn:8020", () -> active, () -> {
    made.incrementAndGet();
    return new ReplaceArbitrator(new MasterSettings(new InetSocketAddress(0), 1, "mpcache", 1.0,
        0.01, "directory", new CachedPaths(List.of(), List.of()), 10_000, 5_000, 10, 60_000, 0.5, 2,
        new int[0], Integer.MAX_VALUE),
        namespace, System::currentTimeMillis, counters);
  }, counters);

  private Verdict admit() throws IOException {
    master.run(m -> m.register("a", "host-a",
        new SlaveUsage(4 * BLOCK, 0, 0, 0, 0, 0, 0, "ok", 0, 0), NONE));
    return master.run(m -> m.requestAdmission("a", 1, BLOCK, NONE)).verdict();
  }

  @Test
  void anExceptionInsideTheMasterDropsItAndTheNextCallFindsAFreshOne() throws Exception {
    assertEquals(Verdict.ADMIT, admit());
    ReplaceArbitrator first = master.current();
    namespace.failure = new IllegalStateException("a bug at /secret/path");
    IOException failed = assertThrows(IOException.class,
        () -> master.run(m -> m.requestAdmission("a", 2, BLOCK, NONE)));
    assertTrue(failed.getMessage().contains("mpCache master on nn:8020 failed (its log says"
        + " why)") && !failed.getMessage().contains("/secret"), failed.getMessage());
    assertNull(master.current(), "no call reads what the failure left");
    assertEquals(1, counters.get(MasterCounter.MASTER_FAILURES));

    ReplaceArbitrator second = master.get();
    assertNotSame(first, second);
    assertTrue(second.recovering(), "the fresh master recovers from the slaves");
    assertEquals(Verdict.ADMIT, admit(), "and decides once the slave registered again");
    assertEquals(2, made.get());
  }

  @Test
  void runningOutOfMemorySwitchesTheMasterOffUntilAnAdminSwitchesItOn() throws Exception {
    admit();
    namespace.failure = new OutOfMemoryError("Java heap space");
    assertThrows(IOException.class, () -> master.run(m -> m.requestAdmission("a", 2, BLOCK,
        NONE)));
    IOException off = assertThrows(IOException.class, master::get);
    assertTrue(off.getMessage().contains("switched off"), off.getMessage());
    assertFalse(master.switchTo(true), "it was off");
    assertTrue(master.get().recovering());
  }

  /** Whether {@code thread} waits to enter {@code monitor}'s synchronized methods. */
  private static boolean waitsFor(Thread thread, Object monitor) {
    LockInfo lock = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId())
        .getLockInfo();
    return lock != null && lock.getIdentityHashCode() == System.identityHashCode(monitor);
  }

  @Test
  void aCallWaitingOnAMasterThatFailedHasItsAnswerDiscarded() throws Exception {
    admit();
    ReplaceArbitrator first = master.current();
    namespace.mayGoOn = new CountDownLatch(1);
    namespace.failure = new IllegalStateException("a bug");
    CompletableFuture<Void> failing = CompletableFuture.runAsync(() -> assertThrows(
        IOException.class, () -> master.run(m -> m.requestAdmission("a", 2, BLOCK, NONE))));
    namespace.failing.await();
    AtomicReference<Thread> waiter = new AtomicReference<>();
    CompletableFuture<IOException> waiting = CompletableFuture.supplyAsync(() -> {
      waiter.set(Thread.currentThread());
      return assertThrows(IOException.class,
          () -> master.run(m -> m.requestAdmission("a", 3, BLOCK, NONE)));
    });
    GenericTestUtils.waitFor(() -> waiter.get() != null && waitsFor(waiter.get(), first), 5,
        10_000, "the second call waiting for the master the first one holds");
    namespace.mayGoOn.countDown();
    failing.get();
    assertTrue(waiting.get().getMessage().contains("restarted while answering"),
        waiting.get().getMessage());
    assertEquals(1, counters.get(MasterCounter.MASTER_FAILURES));
  }

  @Test
  void anIOExceptionIsTheCallersAndKeepsTheMaster() throws Exception {
    assertEquals(Verdict.ADMIT, admit());
    ReplaceArbitrator kept = master.current();
    assertThrows(IOException.class, () -> master.run(m -> {
      throw new IOException("refused");
    }));
    assertSame(kept, master.current());
    assertEquals(0, counters.get(MasterCounter.MASTER_FAILURES));
  }

  @Test
  void aStandbyOrASwitchedOffMasterIsDroppedAndComesBackFresh() throws Exception {
    admit();
    active = false;
    assertThrows(StandbyException.class, master::get);
    assertNull(master.current());
    active = true;
    admit();
    assertTrue(master.switchTo(false));
    IOException off = assertThrows(IOException.class, master::get);
    assertTrue(off.getMessage().contains("switched off"), off.getMessage());
    assertNull(master.current());
    assertFalse(master.switchTo(true), "it was off");
    assertTrue(master.get().recovering());
    assertEquals(3, made.get());
  }
}
