package org.mpcache.puma;

/**
 * An order-independent digest of a multiset of strings, so a check can compare everything an
 * output holds with what its input implies in constant memory, whatever the reducers' order.
 * Equal multisets give equal digests; different ones collide with a chance of about 2^-64.
 */
final class MultisetDigest {
  private long count;
  private long sum;

  void add(String element) {
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < element.length(); i++) {
      hash = (hash ^ element.charAt(i)) * 0x100000001b3L;
    }
    // SplitMix64's finalizer spreads FNV-1a's bits, so the sum does not cancel structure.
    hash = (hash ^ (hash >>> 30)) * 0xbf58476d1ce4e5b9L;
    hash = (hash ^ (hash >>> 27)) * 0x94d049bb133111ebL;
    sum += hash ^ (hash >>> 31);
    count++;
  }

  long count() {
    return count;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof MultisetDigest digest && digest.count == count && digest.sum == sum;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sum);
  }

  @Override
  public String toString() {
    return count + " elements (digest " + Long.toHexString(sum) + ")";
  }
}
