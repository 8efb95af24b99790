package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class TestPartialRead {
  @Test
  void aPrefixIsTheFirstBlocksAndTheNewestTheLast() {
    SplittableRandom unused = new SplittableRandom(1);
    assertArrayEquals(new int[] {0, 1, 2}, PartialRead.PREFIX.blocks(10, 3, unused));
    assertArrayEquals(new int[] {7, 8, 9}, PartialRead.NEWEST.blocks(10, 3, unused));
  }

  /** Over many draws of 3 blocks of 10, each block is read by about 3 in 10. */
  @Test
  void randomBlocksAreAscendingDistinctAndEachAsLikely() {
    SplittableRandom random = new SplittableRandom(7);
    int draws = 20_000;
    int[] chosen = new int[10];
    for (int draw = 0; draw < draws; draw++) {
      int[] part = PartialRead.RANDOM.blocks(10, 3, random);
      assertEquals(3, part.length);
      for (int k = 0; k < part.length; k++) {
        assertTrue(k == 0 || part[k] > part[k - 1], "ascending and distinct");
        chosen[part[k]]++;
      }
    }
    for (int index = 0; index < chosen.length; index++) {
      double share = chosen[index] / (double) draws;
      assertTrue(share > 0.28 && share < 0.32, "block " + index + " read by " + share);
    }
  }

  @Test
  void aCountOutsideTheDataSetOrAnUnknownChoiceIsRefused() {
    SplittableRandom random = new SplittableRandom(1);
    assertThrows(IllegalArgumentException.class, () -> PartialRead.RANDOM.blocks(3, 4, random));
    assertThrows(IllegalArgumentException.class, () -> PartialRead.PREFIX.blocks(3, 0, random));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PartialRead.of("oldest"));
    assertTrue(e.getMessage().contains("[prefix, newest, random]"), e.getMessage());
    assertEquals(PartialRead.NEWEST, PartialRead.of("newest"));
  }
}
