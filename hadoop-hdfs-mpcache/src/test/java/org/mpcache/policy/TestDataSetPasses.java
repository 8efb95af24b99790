package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestDataSetPasses {
  private final DataSet three = new DataSet(1, 3);

  @Test
  void aPassStartsAtTheFirstReadAndAtARepeatedBlock() {
    DataSetPasses passes = new DataSetPasses();
    assertTrue(passes.read(three, 10));
    assertFalse(passes.read(three, 11));
    assertTrue(passes.read(three, 11), "block 11 read again: a new job");
    assertFalse(passes.read(three, 10));
  }

  @Test
  void aPassEndsWhenItCoveredTheDataSet() {
    DataSetPasses passes = new DataSetPasses();
    passes.read(three, 10);
    passes.read(three, 11);
    assertFalse(passes.read(three, 12));
    assertTrue(passes.read(three, 12), "any read after a full pass starts the next one");
  }

  @Test
  void dataSetsHaveTheirOwnPasses() {
    DataSetPasses passes = new DataSetPasses();
    assertTrue(passes.read(three, 10));
    assertTrue(passes.read(new DataSet(2, 3), 20));
    assertFalse(passes.read(three, 11));
  }
}
