package org.mpcache.master.arbitrator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.LoadQueue.Progress;

class TestLoadQueue {
  private static final long STALE = 1_000;
  private final AtomicLong dropped = new AtomicLong();
  private final LoadQueue loads = new LoadQueue(2, STALE, dropped::addAndGet);

  @Test
  void handsOutAtMostTheBoundAndMoreAsBlocksSettle() {
    for (long block = 1; block <= 3; block++) {
      assertTrue(loads.queue(7, block, 0));
    }
    assertFalse(loads.queue(7, 1, 1), "a block is queued once, on one node");
    assertEquals(3, loads.loadsOn(0));
    assertEquals(0, loads.loadsOn(1));
    assertArrayEquals(new long[] {1, 2}, loads.handOut(0, 0));
    assertArrayEquals(new long[0], loads.handOut(0, 0));
    loads.settled(0, 2, true);
    loads.settled(1, 1, false); // not handed to node 1: nothing
    assertArrayEquals(new long[] {3}, loads.handOut(0, 10));
    assertEquals(new Progress(2, 1), loads.progress(7));
  }

  @Test
  void staleBlocksAreDroppedInTheOrderHandedOut() {
    loads.queue(7, 1, 0);
    loads.queue(7, 2, 0);
    loads.queue(7, 3, 0);
    loads.handOut(0, 0);
    assertArrayEquals(new long[0], loads.handOut(0, STALE));
    assertArrayEquals(new long[] {3}, loads.handOut(0, STALE + 1));
    assertEquals(2, dropped.get());
    assertEquals(new Progress(1, 0), loads.progress(7));
    assertTrue(loads.queue(8, 1, 0), "a dropped block can be loaded again");
  }

  @Test
  void aNodeThatLeavesOrADataSetCancelledTakesItsLoadsAlong() {
    loads.queue(7, 1, 0);
    loads.queue(8, 2, 0);
    loads.queue(8, 3, 1);
    loads.handOut(0, 0);
    loads.cancel(8);
    assertEquals(Progress.NONE, loads.progress(8));
    assertEquals(1, loads.loadsOn(0));
    assertEquals(0, loads.loadsOn(1));
    assertTrue(loads.queue(8, 3, 0), "cancelled blocks are forgotten");
    loads.forgetNode(0);
    assertEquals(2, dropped.get());
    assertEquals(new Progress(0, 0), loads.progress(7));
    assertEquals(0, loads.loadsOn(0));
  }

  @Test
  void aNewLoadCountsItsRefusalsAnew() {
    loads.queue(7, 1, 0);
    loads.handOut(0, 0);
    loads.settled(0, 1, true);
    assertEquals(new Progress(0, 1), loads.progress(7));
    loads.starting(7);
    assertEquals(new Progress(0, 0), loads.progress(7));
  }
}
