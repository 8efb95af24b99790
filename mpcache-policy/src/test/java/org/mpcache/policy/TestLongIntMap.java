package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class TestLongIntMap {
  @Test
  void behavesAsAHashMapUnderRandomOperations() {
    LongIntMap map = new LongIntMap();
    Map<Long, Integer> expected = new HashMap<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 200_000; i++) {
      // Few distinct keys, negative ones included (striped block ids are negative).
      long key = random.nextInt(2_000) - 500L;
      switch (random.nextInt(4)) {
        case 0 -> {
          map.put(key, i);
          expected.put(key, i);
        }
        case 1 -> assertEquals(expected.merge(key, 3, Integer::sum), map.add(key, 3));
        case 2 -> {
          Integer removed = expected.remove(key);
          assertEquals(removed == null ? -1 : removed, map.remove(key, -1));
        }
        default -> assertEquals(expected.getOrDefault(key, -1), map.get(key, -1));
      }
      assertEquals(expected.size(), map.size());
    }
    Map<Long, Integer> visited = new HashMap<>();
    map.forEach(visited::put);
    assertEquals(expected, visited);
    expected.keySet().forEach(key -> map.remove(key, -1));
    assertEquals(0, map.size());
    assertEquals(-1, map.get(3, -1));
  }
}
