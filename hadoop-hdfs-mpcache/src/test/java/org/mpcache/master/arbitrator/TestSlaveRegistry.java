package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.SlaveRegistry.Slave;

class TestSlaveRegistry {
  @Test
  void theSlavesSilentTooLongExpireAndTheOthersStay() {
    SlaveRegistry registry = new SlaveRegistry();
    Slave a = registry.newSlave("a");
    Slave b = registry.newSlave("b");
    registry.heard(a, 0);
    registry.heard(b, 10);
    registry.heard(a, 20); // a is now the most recently heard from
    assertEquals(List.of(b), registry.expire(41, 30));
    assertEquals(Set.of("a"), registry.uuids());
    assertNull(registry.get("b"));
    assertEquals(List.of(a), registry.expire(51, 30));
  }

  @Test
  void aDataNodeKeepsItsNodeNumberAcrossRegistrations() {
    SlaveRegistry registry = new SlaveRegistry();
    Slave first = registry.newSlave("a");
    registry.heard(first, 0);
    registry.heard(registry.newSlave("b"), 0);
    registry.expire(100, 10);
    assertEquals(first.node, registry.newSlave("a").node);
    assertEquals(2, registry.newSlave("c").node);
  }
}
