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

  /** The simulator makes each policy again from its name: a variant's name gives it back. */
  @Test
  void anExperimentsParametersFollowItsName() {
    String tuned = "wholeset-adaptive:1000.0/2.0:10.0:0.5";
    assertEquals(tuned, SimulatorPolicies.create(tuned).name());
    assertEquals(tuned, SimulatorPolicies.create(SimulatorPolicies.create(tuned).name()).name());
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> SimulatorPolicies.create("mpcache-as-published:2"));
    assertEquals("replacement policy 'mpcache-as-published:2': mpcache-as-published takes no"
        + " parameters", refused.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> SimulatorPolicies.create("wholeset-adaptive:100/x"));
    assertThrows(IllegalArgumentException.class,
        () -> SimulatorPolicies.create("wholeset-adaptive:100:1:0:4"));
  }
}
