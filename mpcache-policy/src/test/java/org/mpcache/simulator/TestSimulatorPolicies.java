package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.policy.ReplacementPolicies;

class TestSimulatorPolicies {
  @Test
  void thePublishedVictimRuleRunsInTheSimulatorNotInTheMaster() {
    assertEquals("mpcache-as-published",
        SimulatorPolicies.create("mpcache-as-published").name());
    assertEquals("mpcache-as-published+admission",
        SimulatorPolicies.create("mpcache-as-published+admission").name());
    assertThrows(IllegalArgumentException.class,
        () -> ReplacementPolicies.check("mpcache-as-published"));
    assertEquals(List.of("mpcache", "mpcache-as-published", "lru", "lfu", "mru", "wholeset",
        "mpcache+admission", "lru+admission", "lfu+admission"), SimulatorPolicies.NAMES);
  }
}
