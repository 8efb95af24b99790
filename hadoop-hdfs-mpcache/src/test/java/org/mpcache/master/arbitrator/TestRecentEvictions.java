package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.RecentEvictions.Eviction;

class TestRecentEvictions {
  private final AtomicLong wallClock = new AtomicLong(1_000);

  @Test
  void keepsTheLastEvictionsNewestFirst() {
    RecentEvictions recent = new RecentEvictions(3, wallClock::getAndIncrement);
    for (int i = 0; i < 5; i++) {
      recent.record("/d" + i, 1, i, MasterCounter.EVICTIONS_FOR_ROOM);
    }
    List<Eviction> kept = recent.newestFirst();
    assertEquals(List.of("/d4", "/d3", "/d2"), kept.stream().map(Eviction::dataSet).toList());
    assertEquals(new Eviction(1_004, "/d4", 1, 4, MasterCounter.EVICTIONS_FOR_ROOM), kept.get(0));
  }

  @Test
  void startsEmpty() {
    assertEquals(List.of(), new RecentEvictions(3, wallClock::get).newestFirst());
  }

  @Test
  void anEvictionWithoutItsDataSetKeepsTheRest() {
    Eviction eviction = new Eviction(7, "/secret", 2, 5, MasterCounter.EVICTIONS_BY_TTL);
    Eviction hidden = eviction.withoutDataSet();
    assertNull(hidden.dataSet());
    assertEquals(new Eviction(7, null, 2, 5, MasterCounter.EVICTIONS_BY_TTL), hidden);
  }
}
