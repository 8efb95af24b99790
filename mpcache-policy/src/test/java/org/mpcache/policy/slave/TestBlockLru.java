package org.mpcache.policy.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;

class TestBlockLru {

  @Test
  void victimsAreTheLeastRecentlyUsedUntilEnoughIsFreed() {
    BlockLru<String> lru = new BlockLru<>();
    lru.add("a", 10);
    lru.add("b", 10);
    lru.add("c", 10);
    lru.touch("a");

    assertEquals(List.of("b"), lru.victims(1));
    assertEquals(List.of("b", "c"), lru.victims(11));
    assertEquals(List.of("b", "c", "a"), lru.victims(1000));
    assertEquals(List.of(), lru.victims(0));
  }

  @Test
  void totalFollowsAddsReplacementsAndRemovals() {
    BlockLru<String> lru = new BlockLru<>();
    lru.add("a", 10);
    lru.add("b", 5);
    lru.add("a", 7);
    assertEquals(12, lru.totalBytes());
    lru.remove("a");
    lru.remove("missing");
    assertEquals(5, lru.totalBytes());
    assertFalse(lru.contains("a"));
    assertEquals(1, lru.size());
  }

  @Test
  void touchingAnUnknownItemChangesNothing() {
    BlockLru<String> lru = new BlockLru<>();
    lru.add("a", 1);
    lru.touch("zzz");
    assertEquals(1, lru.size());
    assertEquals(List.of("a"), lru.victims(1));
  }
}
