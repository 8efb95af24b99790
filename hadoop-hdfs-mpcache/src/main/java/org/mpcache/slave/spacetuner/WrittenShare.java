package org.mpcache.slave.spacetuner;

/**
 * What share of the bytes its task attempts asked for a node's attempts wrote, learned from the
 * map attempts that ended. Hadoop sizes a request before compressing (a spill asks for its sort
 * buffer span, a fetched map output for its decompressed length) and writes the file compressed,
 * so under map-output compression a request is several times the file. A request is charged its
 * size times this share ({@link #charge}); the scans then count the files as written, so a share
 * learned too low holds until the next scan. Only maps granted their one request teach
 * ({@link LocalizedLedger#finished}): what other attempts leave is less than they wrote.
 *
 * <p>Recent attempts weigh more (each sample's weight decays by {@value #DECAY} per later one).
 * The share is never above 1 (a charge above the request would refuse what fits) nor under
 * {@value #FLOOR_DENOMINATOR}th (a job that asks for much and writes little cannot make the
 * others' requests free).
 */
final class WrittenShare {
  static final int FLOOR_DENOMINATOR = 16;
  private static final double DECAY = 0.9;

  private double asked;
  private double written;

  /** A map attempt that was granted {@code askedBytes} left {@code writtenBytes} on the SSD. */
  void sample(long askedBytes, long writtenBytes) {
    if (askedBytes <= 0 || writtenBytes <= 0) {
      return; // nothing measured: no grant, or its files already gone with its job
    }
    asked = asked * DECAY + askedBytes;
    written = written * DECAY + writtenBytes;
  }

  /** The share learned so far; 1 before any sample. */
  double share() {
    return asked == 0 ? 1 : Math.max(1.0 / FLOOR_DENOMINATOR, Math.min(1, written / asked));
  }

  /** What a request for {@code bytes} is charged: at least 1 byte for a non-empty one. */
  long charge(long bytes) {
    return bytes == 0 ? 0 : Math.max(1, (long) Math.ceil(bytes * share()));
  }
}
