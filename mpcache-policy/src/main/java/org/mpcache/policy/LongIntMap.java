package org.mpcache.policy;

/**
 * A map from long to int without boxing (open addressing, linear probing, backward-shift
 * deletion): the arbitrator keeps one entry per cached block, so its heap per block is what
 * bounds how many blocks a master can track. Not thread-safe.
 */
final class LongIntMap {
  /** Receives entries from {@link #forEach}. */
  @FunctionalInterface
  interface Visitor {
    void visit(long key, int value);
  }

  private static final int MIN_CAPACITY = 4;

  private long[] keys;
  private int[] values;
  private boolean[] filled;
  private int size;

  LongIntMap() {
    allocate(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  /** The value of {@code key}, or {@code missing}. */
  int get(long key, int missing) {
    for (int slot = slot(key);; slot = next(slot)) {
      if (!filled[slot]) {
        return missing;
      }
      if (keys[slot] == key) {
        return values[slot];
      }
    }
  }

  boolean containsKey(long key) {
    for (int slot = slot(key);; slot = next(slot)) {
      if (!filled[slot]) {
        return false;
      }
      if (keys[slot] == key) {
        return true;
      }
    }
  }

  /** Adds {@code delta} to the value of {@code key} (0 when absent) and returns the sum. */
  int add(long key, int delta) {
    int slot = slot(key);
    for (; filled[slot]; slot = next(slot)) {
      if (keys[slot] == key) {
        return values[slot] += delta;
      }
    }
    insert(slot, key, delta);
    return delta;
  }

  void put(long key, int value) {
    int slot = slot(key);
    for (; filled[slot]; slot = next(slot)) {
      if (keys[slot] == key) {
        values[slot] = value;
        return;
      }
    }
    insert(slot, key, value);
  }

  /** Removes {@code key}; returns its value, or {@code missing} when it was absent. */
  int remove(long key, int missing) {
    int slot = slot(key);
    for (; filled[slot]; slot = next(slot)) {
      if (keys[slot] == key) {
        int value = values[slot];
        deleteAt(slot);
        return value;
      }
    }
    return missing;
  }

  /** The keys, in no particular order (a copy: the map may change while they are used). */
  long[] keys() {
    long[] keys = new long[size];
    int[] next = {0};
    forEach((key, value) -> keys[next[0]++] = key);
    return keys;
  }

  void forEach(Visitor visitor) {
    for (int slot = 0; slot < keys.length; slot++) {
      if (filled[slot]) {
        visitor.visit(keys[slot], values[slot]);
      }
    }
  }

  void clear() {
    allocate(MIN_CAPACITY);
    size = 0;
  }

  private void insert(int slot, long key, int value) {
    keys[slot] = key;
    values[slot] = value;
    filled[slot] = true;
    if (++size * 4 > keys.length * 3) {
      rehash(keys.length * 2);
    }
  }

  /** Backward-shift deletion: later entries of the probe run move up, no tombstones. */
  private void deleteAt(int slot) {
    size--;
    int hole = slot;
    for (int probe = next(hole); filled[probe]; probe = next(probe)) {
      int home = slot(keys[probe]);
      boolean movable = hole <= probe ? home <= hole || home > probe : home <= hole && home > probe;
      if (movable) {
        keys[hole] = keys[probe];
        values[hole] = values[probe];
        hole = probe;
      }
    }
    filled[hole] = false;
    if (keys.length > MIN_CAPACITY && size * 8 < keys.length) {
      rehash(keys.length / 2);
    }
  }

  private void rehash(int capacity) {
    long[] oldKeys = keys;
    int[] oldValues = values;
    boolean[] oldFilled = filled;
    allocate(capacity);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldFilled[i]) {
        int slot = slot(oldKeys[i]);
        while (filled[slot]) {
          slot = next(slot);
        }
        keys[slot] = oldKeys[i];
        values[slot] = oldValues[i];
        filled[slot] = true;
      }
    }
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    values = new int[capacity];
    filled = new boolean[capacity];
  }

  private int slot(long key) {
    long mixed = key * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32)) & (keys.length - 1);
  }

  private int next(int slot) {
    return (slot + 1) & (keys.length - 1);
  }
}
