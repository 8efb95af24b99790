package org.mpcache.policy.slave;

/**
 * The Dynamic Space Tuner's arithmetic (the mpCache paper §3.2, Fig. 5): a node's SSD cache in
 * units of one block ({@link #unitFor}) is Input Cache + Dynamic Pool + Localized Cache. Input data
 * may use every pool unit that localized data does not hold. Localized data that outgrows its own
 * part takes pool units one by one; a unit that input data occupies is only usable once the input
 * data on it has been evicted through the replacement scheme. When localized utilisation falls
 * under the guard value, the pool units localized data holds return to input data: all of them but
 * those its data still fills (that data cannot move).
 *
 * <p>Pure arithmetic: the caller says how much input and localized data the node holds and
 * evicts input data when told.
 */
public final class DynamicPool {
  /** The paper's guard value. */
  public static final double DEFAULT_GUARD = 0.5;
  /** The fewest units a cache is split into (below it, units are smaller than a block). */
  public static final int MIN_UNITS = 64;

  /** What a request for localized space gets. */
  public enum Grant {
    /** The bytes are the caller's: write them to the SSD. */
    GRANTED,
    /**
     * Pool units were taken for localized data but input data still fills them: evict input data
     * down to {@link #inputCapacityBytes()}; the request is refused meanwhile (write to HDD).
     */
    EVICT_INPUT_FIRST,
    /** Even the whole pool would not hold the bytes: write them to HDD. */
    NO_ROOM
  }

  private final long unitBytes;
  private final int inputUnits;
  private final int poolUnits;
  private final int localizedUnits;
  private final double guard;
  /** Pool units localized data holds. */
  private int lentUnits;
  private long localizedBytes;

  /**
   * @param unitBytes one unit ({@link #unitFor})
   * @param inputUnits the Input Cache's own units
   * @param poolUnits the Dynamic Pool's units
   * @param localizedUnits the Localized Cache's own units
   * @param guard localized utilisation under which its pool units return, in [0, 1]
   */
  public DynamicPool(long unitBytes, int inputUnits, int poolUnits, int localizedUnits,
      double guard) {
    if (unitBytes <= 0 || inputUnits < 0 || poolUnits < 0 || localizedUnits < 0) {
      throw new IllegalArgumentException("unit " + unitBytes + " bytes, units " + inputUnits
          + " input, " + poolUnits + " pool, " + localizedUnits + " localized");
    }
    if (!(guard >= 0 && guard <= 1)) {
      throw new IllegalArgumentException("guard value " + guard + " is not in [0, 1]");
    }
    this.unitBytes = unitBytes;
    this.inputUnits = inputUnits;
    this.poolUnits = poolUnits;
    this.localizedUnits = localizedUnits;
    this.guard = guard;
  }

  /**
   * Splits {@code capacityBytes} into whole units: {@code poolShare} of them form the pool,
   * {@code localizedShare} the Localized Cache, the rest the Input Cache.
   */
  public static DynamicPool split(long capacityBytes, long unitBytes, double poolShare,
      double localizedShare, double guard) {
    if (poolShare < 0 || localizedShare < 0 || poolShare + localizedShare > 1) {
      throw new IllegalArgumentException("pool share " + poolShare + " and localized share "
          + localizedShare + " must be >= 0 and add up to at most 1");
    }
    int units = (int) Math.min(Integer.MAX_VALUE, capacityBytes / unitBytes);
    int pool = (int) Math.floor(units * poolShare);
    int localized = (int) Math.floor(units * localizedShare);
    return new DynamicPool(unitBytes, units - pool - localized, pool, localized, guard);
  }

  /**
   * The unit of a cache of {@code capacityBytes} unless configured: one block (the mpCache paper
   * §3.2), or a {@value #MIN_UNITS}th of the cache when it holds fewer than {@value #MIN_UNITS}
   * blocks. In block units a small cache has too few to split (three 8 MB blocks: two input units,
   * one pool unit, no localized unit), and one task's spill outgrows the whole pool; input data
   * still comes and goes in whole blocks, evicted until it fits what the units leave it
   * (docs/configuration.md).
   */
  public static long unitFor(long capacityBytes, long blockBytes) {
    if (blockBytes <= 0) {
      throw new IllegalArgumentException("block size " + blockBytes + " bytes");
    }
    return Math.max(1, Math.min(blockBytes, capacityBytes / MIN_UNITS));
  }

  /** What input data may fill now: its own units and every pool unit localized data lacks. */
  public long inputCapacityBytes() {
    return (long) (inputUnits + poolUnits - lentUnits) * unitBytes;
  }

  /** The most input data may ever hold: its own units and the whole pool. */
  public long inputCeilingBytes() {
    return (long) (inputUnits + poolUnits) * unitBytes;
  }

  /** What localized data may fill now: its own units and the pool units it holds. */
  public long localizedCapacityBytes() {
    return (long) (localizedUnits + lentUnits) * unitBytes;
  }

  /** The most localized data may ever hold: its own units and the whole pool. */
  public long localizedCeilingBytes() {
    return (long) (localizedUnits + poolUnits) * unitBytes;
  }

  /** Localized bytes granted and not released. */
  public long localizedBytes() {
    return localizedBytes;
  }

  /** Pool units localized data holds. */
  public int lentUnits() {
    return lentUnits;
  }

  /** Pool bytes neither input data (holding {@code inputUsedBytes}) nor localized data fills. */
  public long freePoolBytes(long inputUsedBytes) {
    long inputInPool = Math.max(0, inputUsedBytes - (long) inputUnits * unitBytes);
    long localizedInPool = Math.max(0, localizedBytes - (long) localizedUnits * unitBytes);
    return Math.max(0, (long) poolUnits * unitBytes - inputInPool - localizedInPool);
  }

  /**
   * Localized data asks for {@code bytes} more while input data holds {@code inputUsedBytes}.
   * Granted bytes count as localized data until the next {@link #localizedNow}.
   */
  public Grant request(long bytes, long inputUsedBytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative request " + bytes);
    }
    // Beyond all that localized data may ever hold (its units and the whole pool): refused
    // before the sum below, which such a request (Long.MAX_VALUE) would overflow.
    if (bytes > localizedCeilingBytes() - localizedBytes) {
      return Grant.NO_ROOM;
    }
    long wanted = localizedBytes + bytes;
    int neededUnits = unitsFor(wanted) - localizedUnits;
    if (neededUnits > poolUnits) {
      return Grant.NO_ROOM;
    }
    lentUnits = Math.max(lentUnits, neededUnits);
    if (inputUsedBytes > inputCapacityBytes()) {
      return Grant.EVICT_INPUT_FIRST;
    }
    localizedBytes = wanted;
    return Grant.GRANTED;
  }

  /** A grant of {@code bytes} the caller could not use after all: no longer localized data's. */
  public void withdraw(long bytes) {
    localizedBytes = Math.max(0, localizedBytes - bytes);
  }

  /**
   * What localized data holds now, as the tuner measured it (files written, grants of running
   * tasks): less than before means data was deleted, and under the guard value the pool units it
   * holds and does not fill return to input data. {@code waitingBytes}, asked for by requests
   * still waiting for input data to leave, count as held: the units lent for them stay.
   */
  public void localizedNow(long bytes, long waitingBytes) {
    if (bytes < 0 || waitingBytes < 0) {
      throw new IllegalArgumentException("negative localized bytes " + bytes + " or waiting "
          + waitingBytes);
    }
    localizedBytes = bytes;
    long held = bytes + waitingBytes;
    if (lentUnits > 0 && held < guard * localizedCapacityBytes()) {
      lentUnits = Math.max(0, unitsFor(held) - localizedUnits);
    } else if (bytes > localizedCapacityBytes()) {
      // Written beyond what was charged (requests are charged an estimate): the units it fills
      // are localized data's, and input data leaves them.
      lentUnits = Math.min(poolUnits, unitsFor(bytes) - localizedUnits);
    }
  }

  private int unitsFor(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, (bytes + unitBytes - 1) / unitBytes);
  }

  @Override
  public String toString() {
    return String.format("input %d + pool %d + localized %d units of %d bytes, %d lent, "
        + "%d localized bytes", inputUnits, poolUnits, localizedUnits, unitBytes, lentUnits,
        localizedBytes);
  }
}
