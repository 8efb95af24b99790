package org.mpcache.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A policy's per-data-set state by dense data-set id. The master hands out the lowest free id
 * and reuses the ids of forgotten data sets: forgetting drops the state, and the table stops
 * growing, trimmed when its last ids are freed (docs/architecture.md, "Forgetting data sets").
 */
final class DataSetSlots<T> {
  private final List<T> slots = new ArrayList<>();
  private int count;

  /** The state of data set {@code id}, or null. */
  T get(int id) {
    return id < slots.size() ? slots.get(id) : null;
  }

  /** The state of data set {@code id}, made by {@code fresh} if it has none. */
  T getOrCreate(int id, Supplier<T> fresh) {
    while (slots.size() <= id) {
      slots.add(null);
    }
    T state = slots.get(id);
    if (state == null) {
      state = fresh.get();
      slots.set(id, state);
      count++;
    }
    return state;
  }

  /** Drops the state of data set {@code id}. */
  void clear(int id) {
    if (get(id) == null) {
      return;
    }
    slots.set(id, null);
    count--;
    while (!slots.isEmpty() && slots.get(slots.size() - 1) == null) {
      slots.remove(slots.size() - 1);
    }
  }

  /** Data sets with state. */
  int count() {
    return count;
  }
}
