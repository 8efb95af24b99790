package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.ipc.StandbyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpcache.conf.MasterSettings;
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

  /** One data set of 10 blocks; resolving a block throws {@link #failure} when set. */
  private static final class FailingNamespace extends TestCacheMaster.FakeNamespace {
    volatile Throwable failure;

    FailingNamespace() {
      super(Set.of("a"), 10);
    }

    @Override
    public DataSetRef[] dataSetsOf(long[] blockIds) {
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      return super.dataSetsOf(blockIds);
    }
  }

  private final FailingNamespace namespace = new FailingNamespace();
  private final MasterCounter.Values counters = new MasterCounter.Values();
  private final AtomicInteger made = new AtomicInteger();
  private volatile boolean active = true;
  private final ActiveMaster master = new ActiveMaster("nn:8020", () -> active, () -> {
    made.incrementAndGet();
    return new CacheMaster(new MasterSettings(new InetSocketAddress(0), 1, "mpcache", 1.0, 0.01,
        "directory", new CachedPaths(List.of(), List.of()), 10_000, 5_000, 10, 60_000),
        namespace, System::currentTimeMillis, counters);
  }, counters);

  private Verdict admit() throws IOException {
    master.run(m -> m.register("a", "host-a",
        new SlaveUsage(4 * BLOCK, 0, 0, 0, 0, 0, 0, "ok", 0, 0), NONE));
    return master.run(m -> m.requestAdmission("a", 1, BLOCK, NONE)).verdict();
  }

  @ParameterizedTest
  @ValueSource(strings = {"exception", "out of memory"})
  void aFailureInsideTheMasterDropsItAndTheNextCallFindsAFreshOne(String kind) throws Exception {
    assertEquals(Verdict.ADMIT, admit());
    CacheMaster first = master.current();
    namespace.failure = kind.equals("exception") ? new IllegalStateException("a bug")
        : new OutOfMemoryError("Java heap space");
    IOException failed = assertThrows(IOException.class,
        () -> master.run(m -> m.requestAdmission("a", 2, BLOCK, NONE)));
    assertTrue(failed.getMessage().contains("mpCache master on nn:8020 failed ("
        + namespace.failure), failed.getMessage());
    assertNull(master.current(), "its state went back to the NameNode's heap");
    assertEquals(1, counters.get(MasterCounter.MASTER_FAILURES));

    namespace.failure = null;
    CacheMaster second = master.get();
    assertNotSame(first, second);
    assertTrue(second.recovering(), "the fresh master recovers from the slaves");
    assertEquals(Verdict.ADMIT, admit(), "and decides once the slave registered again");
    assertEquals(2, made.get());
  }

  @Test
  void anIOExceptionIsTheCallersAndKeepsTheMaster() throws Exception {
    assertEquals(Verdict.ADMIT, admit());
    CacheMaster kept = master.current();
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
