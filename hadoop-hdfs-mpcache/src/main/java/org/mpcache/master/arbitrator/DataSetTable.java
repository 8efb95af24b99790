package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import org.mpcache.master.namespace.DataSetControl;
import org.mpcache.master.namespace.Namespace.DataSetRef;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.DataSetRecency;

/**
 * The data sets the master has seen, one record each under the dense id the policies index
 * their tables by; a namespace data set keeps its id across renames and resizes. A data set the
 * master forgets frees its id, and the lowest free id is handed out first: the records go, and
 * the id-indexed tables (here and in the policies) stop growing; they keep their peak length,
 * a few bytes per id, until their last ids are freed.
 */
final class DataSetTable {
  /** What the master shows of a data set: its latest path, size in blocks and control. */
  record Entry(long key, String path, int blocks, DataSetControl control) {
  }

  private final Map<Long, Integer> ids = new HashMap<>();
  private final List<Entry> entries = new ArrayList<>();
  /** Ids below entries.size() that name no data set: a bit each, however many. */
  private final BitSet freeIds = new BitSet();
  private final DataSetRecency recency = new DataSetRecency();

  /** The policy's data set for a namespace one, seen at {@code now}; null for none. */
  DataSet dataSet(DataSetRef ref, long now) {
    if (ref == null || ref.blocks() <= 0) {
      return null;
    }
    Entry entry = new Entry(ref.key(), ref.path(), ref.blocks(), ref.control());
    Integer id = ids.get(ref.key());
    if (id == null) {
      id = freeIds.isEmpty() ? entries.size() : freeIds.nextSetBit(0);
      freeIds.clear(id);
      ids.put(ref.key(), id);
      if (id == entries.size()) {
        entries.add(entry);
      } else {
        entries.set(id, entry);
      }
    } else {
      entries.set(id, entry);
    }
    recency.seen(id, now);
    return new DataSet(id, ref.blocks());
  }

  Entry get(int id) {
    return entries.get(id);
  }

  /** Up to {@code max} data sets last seen before {@code cutoff}, least recently seen first. */
  List<Integer> unseenSince(long cutoff, int max) {
    return recency.unseenSince(cutoff, max);
  }

  /** The data set stays (it still holds copies): it is looked at again a full period later. */
  void keep(int id, long now) {
    recency.seen(id, now);
  }

  /**
   * Forgets the least recently seen data sets beyond {@code cap} that {@code forget} lets go
   * ({@link DataSetRecency#forgetOverCap}); {@code forget} calls {@link #forget} for each.
   */
  int forgetOverCap(int cap, int spared, long now, IntPredicate forget) {
    return recency.forgetOverCap(cap, spared, now, forget);
  }

  /** Forgets data set {@code id}; its id may name another data set. */
  void forget(int id) {
    ids.remove(entries.get(id).key());
    recency.forget(id);
    entries.set(id, null);
    freeIds.set(id);
    while (!entries.isEmpty() && entries.get(entries.size() - 1) == null) {
      freeIds.clear(entries.size() - 1);
      entries.remove(entries.size() - 1);
    }
  }

  /** Data sets the table holds. */
  int size() {
    return ids.size();
  }
}
