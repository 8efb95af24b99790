package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class TestCopiesByNode {
  @Test
  void aPairsCopiesLeaveNewestFirstAndItsNodeLeavesWithTheLast() {
    CopiesByNode copies = new CopiesByNode();
    assertTrue(copies.add(3, 7, 100));
    assertFalse(copies.add(3, 7, 101));
    assertTrue(copies.add(3, 8, 102));
    assertEquals(2, copies.count(3, 7));
    assertEquals(101, copies.newestBlock(3, 7));
    assertEquals(2, copies.nodeCount(3));

    assertFalse(copies.remove(3, 7, 100)); // an older copy, from the middle of the list
    assertEquals(101, copies.newestBlock(3, 7));
    assertTrue(copies.remove(3, 7, 101));
    assertEquals(0, copies.count(3, 7));
    assertEquals(1, copies.nodeCount(3));
    assertEquals(8, copies.node(3, 0));
    assertEquals(0, copies.nodeCount(99));
  }

  /** Random adds and removes against a plain model: counts, newest block and node lists agree. */
  @Test
  void matchesAModelUnderRandomChurn() {
    CopiesByNode copies = new CopiesByNode();
    Map<List<Integer>, Deque<Long>> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(42);
    long nextBlock = 0;
    for (int step = 0; step < 20_000; step++) {
      int dataSet = random.nextInt(30);
      int node = random.nextInt(12);
      Deque<Long> pair = model.computeIfAbsent(List.of(dataSet, node), k -> new ArrayDeque<>());
      if (pair.isEmpty() || random.nextInt(3) > 0) {
        long block = nextBlock++;
        assertEquals(pair.isEmpty(), copies.add(dataSet, node, block));
        pair.addFirst(block);
      } else {
        List<Long> held = new ArrayList<>(pair);
        long block = held.get(random.nextInt(held.size()));
        pair.remove(block);
        assertEquals(pair.isEmpty(), copies.remove(dataSet, node, block));
      }
      assertEquals(pair.size(), copies.count(dataSet, node));
      if (!pair.isEmpty()) {
        assertEquals(pair.peekFirst(), copies.newestBlock(dataSet, node));
      }
      Set<Integer> expectedNodes = new HashSet<>();
      model.forEach((key, blocks) -> {
        if (key.get(0) == dataSet && !blocks.isEmpty()) {
          expectedNodes.add(key.get(1));
        }
      });
      Set<Integer> actualNodes = new HashSet<>();
      for (int i = 0; i < copies.nodeCount(dataSet); i++) {
        actualNodes.add(copies.node(dataSet, i));
      }
      assertEquals(expectedNodes, actualNodes);
      assertEquals(expectedNodes.size(), copies.nodeCount(dataSet));
    }
  }
}
