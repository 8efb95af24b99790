package org.mpcache.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.mpcache.master.Namespace.DataSetRef;
import org.mpcache.policy.DataSet;

/**
 * The data sets the master has seen, one record each under the dense id the policies index
 * their tables by; a namespace data set keeps its id across renames and resizes.
 */
final class DataSetTable {
  /** What the master shows of a data set: its latest path and size in blocks. */
  record Entry(String path, int blocks) {
  }

  private final Map<Long, Integer> ids = new HashMap<>();
  private final List<Entry> entries = new ArrayList<>();

  /** The policy's data set for a namespace one; null for none (not cached, or empty). */
  DataSet dataSet(DataSetRef ref) {
    if (ref == null || ref.blocks() <= 0) {
      return null;
    }
    Entry entry = new Entry(ref.path(), ref.blocks());
    Integer id = ids.get(ref.key());
    if (id == null) {
      id = entries.size();
      ids.put(ref.key(), id);
      entries.add(entry);
    } else {
      entries.set(id, entry);
    }
    return new DataSet(id, ref.blocks());
  }

  Entry get(int id) {
    return entries.get(id);
  }
}
