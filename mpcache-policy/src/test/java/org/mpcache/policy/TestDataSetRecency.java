package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TestDataSetRecency {
  @Test
  void beyondTheCapTheLeastRecentlySeenGoFirst() {
    DataSetRecency recency = new DataSetRecency();
    List<Integer> offered = new ArrayList<>();
    for (int id = 0; id < 5; id++) {
      recency.seen(id, id);
    }
    recency.seen(0, 5); // read again: now the most recent

    assertEquals(2, recency.forgetOverCap(3, 4, 5, id -> offered.add(id)));

    assertEquals(List.of(1, 2), offered);
    assertEquals(3, recency.size());
    assertEquals(List.of(3, 4, 0), recency.unseenSince(Long.MAX_VALUE, 10));
  }

  @Test
  void oneThatMayNotGoIsLookedAtAgainOnlyAfterAllTheOthers() {
    DataSetRecency recency = new DataSetRecency();
    for (int id = 0; id < 4; id++) {
      recency.seen(id, id);
    }
    Set<Integer> holdingCopies = Set.of(0);

    assertEquals(1, recency.forgetOverCap(3, 3, 4, id -> !holdingCopies.contains(id)));
    assertEquals(List.of(2, 3, 0), recency.unseenSince(Long.MAX_VALUE, 10),
        "1 forgotten, 0 kept and seen anew");
    recency.seen(4, 5);
    assertEquals(1, recency.forgetOverCap(3, 4, 5, id -> !holdingCopies.contains(id)));
    assertEquals(List.of(3, 0, 4), recency.unseenSince(Long.MAX_VALUE, 10),
        "2 went next, 0 was not looked at again");
  }

  @Test
  void theDataSetJustSeenIsSparedAndEachCallLooksAtAFewAtMost() {
    DataSetRecency recency = new DataSetRecency();
    int tracked = 100;
    for (int id = 0; id < tracked; id++) {
      recency.seen(id, id);
    }
    int[] looks = {0};

    assertEquals(0, recency.forgetOverCap(1, tracked - 1, tracked, id -> {
      looks[0]++;
      return false; // every one holds copies
    }));
    assertEquals(DataSetRecency.LOOKED_AT_OVER_CAP, looks[0]);
    assertEquals(tracked, recency.size(), "over the cap by those that may not go");

    DataSetRecency two = new DataSetRecency();
    two.seen(7, 0);
    two.seen(8, 1);
    List<Integer> offered = new ArrayList<>();
    two.forgetOverCap(1, 8, 2, id -> {
      offered.add(id);
      return false;
    });
    assertEquals(List.of(7), offered, "8, just seen, is never offered");
    assertTrue(two.unseenSince(Long.MAX_VALUE, 10).containsAll(List.of(7, 8)));
  }
}
