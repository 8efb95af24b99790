package org.mpcache.policy.slave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.mpcache.policy.slave.DynamicPool.Grant;

/** The Dynamic Space Tuner's rules (the mpCache paper §3.2) on a node of 10 units of 100 bytes. */
class TestDynamicPool {
  private static final long UNIT = 100;

  /** 4 input + 4 pool + 2 localized units. */
  private static DynamicPool pool() {
    return new DynamicPool(UNIT, 4, 4, 2, DynamicPool.DEFAULT_GUARD);
  }

  @Test
  void inputDataMayFillThePoolWhileLocalizedDataDoesNotNeedIt() {
    DynamicPool pool = pool();
    assertEquals(8 * UNIT, pool.inputCapacityBytes());
    assertEquals(2 * UNIT, pool.localizedCapacityBytes());
    assertEquals(4 * UNIT, pool.freePoolBytes(0));
    assertEquals(UNIT, pool.freePoolBytes(7 * UNIT));
  }

  @Test
  void localizedDataFirstFillsItsOwnUnits() {
    DynamicPool pool = pool();
    assertEquals(Grant.GRANTED, pool.request(2 * UNIT, 8 * UNIT));
    assertEquals(0, pool.lentUnits());
    assertEquals(8 * UNIT, pool.inputCapacityBytes());
  }

  @Test
  void freePoolUnitsAreTakenOneByOne() {
    DynamicPool pool = pool();
    assertEquals(Grant.GRANTED, pool.request(2 * UNIT + 1, 4 * UNIT));
    assertEquals(1, pool.lentUnits());
    assertEquals(Grant.GRANTED, pool.request(UNIT, 4 * UNIT));
    assertEquals(2, pool.lentUnits());
    assertEquals(6 * UNIT, pool.inputCapacityBytes());
    assertEquals(3 * UNIT + 1, pool.localizedBytes());
  }

  @Test
  void poolUnitsThatInputDataFillsAreFreedByEvictionFirst() {
    DynamicPool pool = pool();
    pool.request(2 * UNIT, 8 * UNIT);
    assertEquals(Grant.EVICT_INPUT_FIRST, pool.request(UNIT, 8 * UNIT));
    assertEquals(7 * UNIT, pool.inputCapacityBytes(), "input data must shrink by one unit");
    assertEquals(2 * UNIT, pool.localizedBytes(), "nothing granted while input data is there");
    // The input data of that unit has been evicted: the same request is granted.
    assertEquals(Grant.GRANTED, pool.request(UNIT, 7 * UNIT));
    assertEquals(1, pool.lentUnits());
  }

  @Test
  void inputDataNeverHoldsTheLocalizedCachesOwnUnits() {
    DynamicPool pool = pool();
    assertEquals(8 * UNIT, pool.inputCeilingBytes());
    pool.request(4 * UNIT, 0);
    assertEquals(6 * UNIT, pool.inputCapacityBytes(), "two pool units lent");
    assertEquals(8 * UNIT, pool.inputCeilingBytes(), "the most it may ever hold stays");
  }

  @Test
  void moreThanThePoolCanHoldIsRefusedWithoutTakingUnits() {
    DynamicPool pool = pool();
    assertEquals(Grant.NO_ROOM, pool.request(6 * UNIT + 1, 0));
    assertEquals(0, pool.lentUnits());
    assertEquals(Grant.GRANTED, pool.request(6 * UNIT, 0));
    assertEquals(4, pool.lentUnits());
    assertEquals(4 * UNIT, pool.inputCapacityBytes());
  }

  @Test
  void aRequestBeyondAnySizeIsRefusedWithoutOverflowing() {
    DynamicPool pool = pool();
    pool.request(UNIT, 0);
    assertEquals(Grant.NO_ROOM, pool.request(Long.MAX_VALUE, 0));
    assertEquals(Grant.NO_ROOM, pool.request(Long.MAX_VALUE - UNIT + 1, 0));
    assertEquals(UNIT, pool.localizedBytes());
    assertEquals(0, pool.lentUnits());
    assertEquals(Grant.NO_ROOM, pool.request(5 * UNIT + 1, 0), "what is left is 5 units");
    assertEquals(Grant.GRANTED, pool.request(5 * UNIT, 0));
  }

  @Test
  void underTheGuardValueThePoolUnitsLocalizedDataDoesNotFillReturn() {
    DynamicPool pool = pool();
    pool.request(6 * UNIT, 0);
    pool.localizedNow(4 * UNIT, 0);
    assertEquals(4, pool.lentUnits(), "4 of 6 units used: 67 %, above the guard");
    pool.localizedNow(3 * UNIT - 1, 0);
    // 299 bytes in 6 units: under 50 %; they fill 3 units, 2 own and 1 of the pool.
    assertEquals(1, pool.lentUnits());
    assertEquals(7 * UNIT, pool.inputCapacityBytes());
    pool.localizedNow(0, 0);
    assertEquals(0, pool.localizedBytes());
    assertEquals(0, pool.lentUnits());
    assertEquals(8 * UNIT, pool.inputCapacityBytes());
  }

  @Test
  void localizedDataMeasuredBeyondItsUnitsTakesTheUnitsItFills() {
    DynamicPool pool = pool();
    assertEquals(Grant.GRANTED, pool.request(UNIT, 8 * UNIT), "charged less than it writes");
    pool.localizedNow(4 * UNIT + 1, 0);
    assertEquals(3, pool.lentUnits(), "its files fill 2 own units and 3 of the pool");
    assertEquals(5 * UNIT, pool.inputCapacityBytes(), "input data leaves them");
    pool.localizedNow(9 * UNIT, 0);
    assertEquals(4, pool.lentUnits(), "never more than the pool");
  }

  @Test
  void growingLocalizedDataKeepsItsPoolUnits() {
    DynamicPool pool = pool();
    pool.request(3 * UNIT, 0);
    pool.localizedNow(UNIT, 0);
    assertEquals(0, pool.lentUnits(), "1 of 3 units used: under the guard");
    pool.request(3 * UNIT, 0);
    pool.localizedNow(4 * UNIT, 0);
    assertEquals(2, pool.lentUnits());
  }

  @Test
  void unitsLentForARequestStillWaitingForEvictionsStay() {
    DynamicPool pool = pool();
    assertEquals(Grant.EVICT_INPUT_FIRST, pool.request(4 * UNIT, 8 * UNIT));
    assertEquals(2, pool.lentUnits());
    pool.localizedNow(0, 4 * UNIT);
    assertEquals(2, pool.lentUnits(), "the waiting request's units are not handed back");
    pool.localizedNow(0, 0);
    assertEquals(0, pool.lentUnits(), "once it gave up, they are");
  }

  @Test
  void splitGivesWholeUnitsAndTheRestToInputData() {
    DynamicPool pool = DynamicPool.split(1050, UNIT, 0.5, 0.1, 0.5);
    assertEquals(4 * UNIT + 5 * UNIT, pool.inputCapacityBytes());
    assertEquals(UNIT, pool.localizedCapacityBytes());
    assertEquals(Grant.NO_ROOM, pool.request(6 * UNIT + 1, 0));
  }

  @Test
  void aUnitIsABlockUnlessTheCacheHoldsFewerThan64() {
    long block = 8L << 20;
    assertEquals(block, DynamicPool.unitFor(64 * block, block));
    assertEquals(block, DynamicPool.unitFor(1000 * block, block));
    // 30 MB of 8 MB blocks: in blocks, 2 input units, 1 pool unit and no localized unit.
    long small = 30L << 20;
    assertEquals(small / 64, DynamicPool.unitFor(small, block));
    DynamicPool inBlocks = DynamicPool.split(small, block, 0.5, 0.1, 0.5);
    DynamicPool fine = DynamicPool.split(small, DynamicPool.unitFor(small, block), 0.5, 0.1, 0.5);
    assertEquals(0, inBlocks.localizedCapacityBytes());
    assertEquals(6 * (small / 64), fine.localizedCapacityBytes(), "6 of 64 units its own");
    assertEquals(Grant.NO_ROOM, inBlocks.request(block + 1, 0), "more than the one pool unit");
    assertEquals(Grant.GRANTED, fine.request(block + 1, 0), "within 38 of 64 units");
    assertEquals(1, DynamicPool.unitFor(10, block), "never 0 bytes");
    assertThrows(IllegalArgumentException.class, () -> DynamicPool.unitFor(small, 0));
  }

  @Test
  void impossibleSettingsAreRefusedNamingThem() {
    IllegalArgumentException shares = assertThrows(IllegalArgumentException.class,
        () -> DynamicPool.split(1000, UNIT, 0.7, 0.4, 0.5));
    assertEquals("pool share 0.7 and localized share 0.4 must be >= 0 and add up to at most 1",
        shares.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DynamicPool(UNIT, 1, 1, 1, 1.5));
  }
}
