package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TestDataSetPasses {
  private final DataSet three = new DataSet(1, 3);

  @Test
  void aPassStartsAtTheFirstReadAndAtARepeatedSingleBlockFile() {
    DataSetPasses passes = new DataSetPasses();
    assertTrue(passes.read(three, 10, true));
    assertFalse(passes.read(three, 11, true));
    assertTrue(passes.read(three, 11, true), "block 11 read again: a new job");
    assertFalse(passes.read(three, 10, true));
  }

  @Test
  void aFullPassOverSingleBlockFilesEndsAtAnyRead() {
    DataSetPasses passes = new DataSetPasses();
    passes.read(three, 10, true);
    passes.read(three, 11, true);
    assertFalse(passes.read(three, 12, true));
    assertTrue(passes.read(three, 12, true), "any read after a full pass starts the next one");
  }

  /** A directory whose files were replaced: its reads name blocks its last pass never read. */
  @Test
  void aBlockNewToAFullPassStartsTheNext() {
    DataSetPasses passes = new DataSetPasses();
    passes.read(three, 10, true);
    passes.read(three, 11, false);
    assertFalse(passes.read(three, 12, false));
    assertTrue(passes.read(three, 20, true), "a new file's first block");
    assertFalse(passes.read(three, 21, false));
    assertFalse(passes.read(three, 22, false));
    assertTrue(passes.read(three, 23, false), "a later block of yet another file");
  }

  /**
   * One job over a file of three blocks: the map of each split reads its block and the start of
   * the next, in whichever order the maps run. One access; the next job's first read of the
   * file's first block, or third of another block, starts the next.
   */
  @Test
  void mapsReadingIntoTheNextBlockAreOneAccess() {
    for (List<Long> order : List.of(List.of(10L, 11L, 11L, 12L, 12L),
        List.of(11L, 12L, 12L, 10L, 11L), List.of(12L, 11L, 12L, 11L, 10L))) {
      DataSetPasses passes = new DataSetPasses();
      int accesses = 0;
      for (long block : order) {
        accesses += passes.read(three, block, block == 10) ? 1 : 0;
      }
      assertEquals(1, accesses, "reads in the order " + order);
      assertTrue(passes.read(three, 10, true), "the next job reads the first block");
      assertFalse(passes.read(three, 11, false));
      assertFalse(passes.read(three, 11, false), "the second read of a later block: one job");
      assertTrue(passes.read(three, 11, false), "the third: another job");
    }
  }

  @Test
  void dataSetsHaveTheirOwnPasses() {
    DataSetPasses passes = new DataSetPasses();
    assertTrue(passes.read(three, 10, true));
    assertTrue(passes.read(new DataSet(2, 3), 20, true));
    assertFalse(passes.read(three, 11, true));
  }
}
