package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class TestLocalizedLedger {
  private static final String MAP = "attempt_1_0001_m_000000_0";
  private static final String REDUCE = "attempt_1_0001_r_000000_0";

  @Test
  void aRunningAttemptCountsForTheLargerOfItsGrantsAndItsFiles() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    ledger.granted(MAP, 300, 0);
    assertEquals(300, ledger.usedBytes(10));
    ledger.scanned(Map.of(MAP, 100L));
    assertEquals(300, ledger.usedBytes(20), "written 100 of 300 granted");
    ledger.scanned(Map.of(MAP, 400L));
    assertEquals(400, ledger.usedBytes(30), "wrote more than it asked for");
  }

  @Test
  void anEndedAttemptCountsForTheFilesItLeft() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    ledger.granted(MAP, 300, 0);
    ledger.granted(REDUCE, 50, 0);
    ledger.scanned(Map.of(MAP, 100L, LocalizedLedger.NO_ATTEMPT, 7L));
    ledger.finished(MAP);
    assertEquals(100 + 50 + 7, ledger.usedBytes(10));
    ledger.scanned(Map.of());
    assertEquals(50, ledger.usedBytes(20), "YARN deleted the application's files");
  }

  @Test
  void grantsLapseWithoutRenewal() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    ledger.granted(MAP, 300, 0);
    assertTrue(ledger.renew(MAP, 900));
    assertEquals(300, ledger.usedBytes(1_800), "renewed at 900: held until 1900");
    assertEquals(0, ledger.usedBytes(1_900));
    assertEquals(0, ledger.liveAttempts(1_900));
    assertFalse(ledger.renew(MAP, 2_000), "nothing to renew once lapsed");
  }
}
