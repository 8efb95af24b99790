package org.mpcache.slave.masterlink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;
import org.mpcache.slave.inputcache.BlockKey;

class TestCopyChanges {
  private static final BlockKey A = new BlockKey("bp", 1);
  private static final BlockKey B = new BlockKey("bp", 2);
  private static final BlockKey OTHER_POOL = new BlockKey("bp-old", 3);

  @Test
  void eachBlockIsReportedByItsLatestStateOnceForItsPool() {
    CopyChanges changes = new CopyChanges();
    changes.cached(A);
    changes.removed(A);
    changes.removed(B);
    changes.cached(B);
    changes.cached(OTHER_POOL);

    CopyChanges.Report report = changes.drain("bp");
    assertArrayEquals(new long[] {2}, report.cached());
    assertArrayEquals(new long[] {1}, report.removed());
    assertArrayEquals(new long[0], changes.drain("bp-old").cached(), "drained with the others");
  }

  /**
   * A copy lost before the heartbeat, then a new fill of the block the master admits (it counts
   * a copy there again): the loss must not reach it after the admission.
   */
  @Test
  void anAdmissionWithdrawsTheBlocksEarlierLoss() {
    CopyChanges changes = new CopyChanges();
    changes.removed(A);
    changes.removed(B);
    changes.admitted(A);

    CopyChanges.Report report = changes.drain("bp");
    assertArrayEquals(new long[] {2}, report.removed());
    assertArrayEquals(new long[0], report.cached());
  }

  @Test
  void anAdmissionLeavesACommittedCopyReported() {
    CopyChanges changes = new CopyChanges();
    changes.cached(A);
    changes.admitted(A);
    assertArrayEquals(new long[] {1}, changes.drain("bp").cached());
  }
}
