package org.mpcache.slave.spacetuner;

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
    ledger.granted(MAP, 300, 300, 0);
    assertEquals(300, ledger.usedBytes(10));
    ledger.scanned(Map.of(MAP, 100L), ledger.scanBegins());
    assertEquals(300, ledger.usedBytes(20), "written 100 of 300 granted");
    ledger.scanned(Map.of(MAP, 400L), ledger.scanBegins());
    assertEquals(400, ledger.usedBytes(30), "wrote more than it asked for");
  }

  @Test
  void anEndedAttemptCountsForTheFilesItLeft() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    ledger.granted(MAP, 300, 300, 0);
    ledger.granted(REDUCE, 50, 50, 0);
    ledger.scanned(Map.of(MAP, 100L, LocalizedLedger.NO_ATTEMPT, 7L), ledger.scanBegins());
    ledger.finished(MAP);
    assertEquals(100 + 50 + 7, ledger.usedBytes(10));
    ledger.scanned(Map.of(), ledger.scanBegins());
    assertEquals(50, ledger.usedBytes(20), "YARN deleted the application's files");
  }

  @Test
  void anotherJobHoldsRoomWithALiveGrantOrFilesLeftButNotWithFilesOfNoAttempt() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    String job = LocalizedLedger.jobOf(MAP);
    String other = "attempt_1_0002_m_000000_0";
    ledger.scanned(Map.of(LocalizedLedger.NO_ATTEMPT, 7L), ledger.scanBegins());
    ledger.granted(MAP, 300, 300, 0);
    assertFalse(ledger.othersHold(job), "its own grant, and files of no job");
    ledger.granted(other, 100, 100, 0);
    assertTrue(ledger.othersHold(job), "a live grant of another job");
    ledger.scanned(Map.of(other, 50L), ledger.scanBegins());
    ledger.finished(other);
    assertTrue(ledger.othersHold(job), "the files it left until YARN deletes them");
    ledger.scanned(Map.of(), ledger.scanBegins());
    assertFalse(ledger.othersHold(job));
  }

  @Test
  void requestsAreChargedWhatEndedMapAttemptsWroteOfTheirs() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    assertEquals(1_000, ledger.charge(1_000), "nothing learned: charged in full");
    ledger.granted(MAP, 1_000, 1_000, 0);
    ledger.granted(REDUCE, 1_000, 1_000, 0);
    long scanUnderWay = ledger.scanBegins();
    ledger.finished(MAP);
    ledger.finished(REDUCE);
    ledger.scanned(Map.of(MAP, 100L, REDUCE, 10L), scanUnderWay);
    assertEquals(1_000, ledger.charge(1_000), "a scan begun before the map ended: its files may "
        + "not be whole");
    ledger.scanned(Map.of(MAP, 250L, REDUCE, 10L), ledger.scanBegins());
    assertEquals(0.25, ledger.writtenShare(), "the map's file: a reduce's merges are gone");
    assertEquals(250, ledger.charge(1_000));

    String second = "attempt_1_0001_m_000001_0";
    ledger.granted(second, ledger.charge(1_000), 1_000, 20);
    assertEquals(250 + 10 + 250, ledger.usedBytes(20),
        "the ended attempts' files, and the second map charged until its files are scanned");
    ledger.scanned(Map.of(MAP, 250L, second, 900L), ledger.scanBegins());
    assertEquals(250 + 900, ledger.usedBytes(21), "a share learned too low holds one scan");
    ledger.finished(second);
    ledger.scanned(Map.of(MAP, 250L, second, 900L), ledger.scanBegins());
    assertEquals((0.9 * 250 + 900) / (0.9 * 1_000 + 1_000), ledger.writtenShare(), 1e-9,
        "the asked-for bytes, not the charged ones, teach");
  }

  @Test
  void onlyMapsGrantedTheirOneRequestTeach() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    String spills = "attempt_1_0001_m_000001_0";
    String refused = "attempt_1_0001_m_000002_0";
    ledger.granted(spills, 500, 500, 0); // two spills, then merged into its output
    ledger.granted(spills, 500, 500, 0);
    ledger.granted(refused, 1_000, 1_000, 0);
    ledger.refused(refused); // its output went to HDD
    ledger.finished(spills);
    ledger.finished(refused);
    ledger.scanned(Map.of(spills, 400L, refused, 24L), ledger.scanBegins());
    assertEquals(1, ledger.writtenShare(), "neither left what it wrote");
  }

  @Test
  void theShareStaysWithinASixteenthAndOne() {
    WrittenShare share = new WrittenShare();
    share.sample(1_000_000, 1);
    assertEquals(1.0 / 16, share.share());
    assertEquals(1, new WrittenShare().charge(1));
    share.sample(1, 1_000_000_000);
    assertEquals(1, share.share(), "never charged more than asked");
    share.sample(1_000, 0);
    assertEquals(1, share.share(), "a map whose files are gone teaches nothing");
    assertEquals(Long.MAX_VALUE, share.charge(Long.MAX_VALUE));
    assertEquals(0, share.charge(0));
  }

  /**
   * A grant must fit the localized dirs' devices beside what live grants may still write; input
   * data the pool evicts on the same device makes room (its copies are being deleted).
   */
  @Test
  void grantsFitTheDevicesAsInputDataLeavesThem() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    assertFalse(ledger.devicesFit(1, 0), "no room before the first measurement");
    ledger.devicesMeasured(1_000, 5_000);
    assertTrue(ledger.devicesFit(1_000, 5_000));
    assertFalse(ledger.devicesFit(1_001, 5_000));
    assertTrue(ledger.devicesFit(1_500, 4_500), "input data evicted since the scan");
    assertFalse(ledger.devicesFit(1_000, 5_200), "fills since the scan");
    ledger.granted(MAP, 600, 600, 0);
    assertFalse(ledger.devicesFit(500, 5_000), "the grant may still be written");
    ledger.scanned(Map.of(MAP, 600L), ledger.scanBegins());
    ledger.devicesMeasured(400, 5_000); // written: the device has it
    assertTrue(ledger.devicesFit(400, 5_000));
  }

  @Test
  void grantsLapseWithoutRenewal() {
    LocalizedLedger ledger = new LocalizedLedger(1_000);
    ledger.granted(MAP, 300, 300, 0);
    assertTrue(ledger.renew(MAP, 900));
    assertEquals(300, ledger.usedBytes(1_800), "renewed at 900: held until 1900");
    assertEquals(0, ledger.usedBytes(1_900));
    assertEquals(0, ledger.liveAttempts(1_900));
    assertFalse(ledger.renew(MAP, 2_000), "nothing to renew once lapsed");
  }
}
