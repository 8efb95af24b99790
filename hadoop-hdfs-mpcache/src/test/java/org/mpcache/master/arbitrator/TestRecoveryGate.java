package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

class TestRecoveryGate {
  @Test
  void recoveryEndsWhenEveryLiveDataNodesSlaveHasRegistered() {
    RecoveryGate gate = new RecoveryGate(0, 1_000);
    assertTrue(gate.recovering(10, Set.of("a"), () -> Set.of("a", "b")));
    assertTrue(gate.recovering(20, Set.of("a", "b"), () -> null), "safe mode: cannot tell");
    assertTrue(gate.recovering(30, Set.of(), Set::of), "no live DataNode proves nothing");
    assertFalse(gate.recovering(40, Set.of("a", "b"), () -> Set.of("a", "b")));
    assertFalse(gate.recovering(50, Set.of(), Set::of), "once ended, it stays ended");
  }

  @Test
  void recoveryEndsAtTheTimeoutWhateverHasRegistered() {
    RecoveryGate gate = new RecoveryGate(100, 1_000);
    assertTrue(gate.recovering(1_099, Set.of(), () -> Set.of("a")));
    assertFalse(gate.recovering(1_100, Set.of(), () -> Set.of("a")));
  }
}
