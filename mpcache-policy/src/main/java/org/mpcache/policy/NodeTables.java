package org.mpcache.policy;

import java.util.List;
import java.util.function.Supplier;

/** The policies keep a record per node, indexed by node id, made when a node is first named. */
final class NodeTables {
  private NodeTables() {
  }

  /** The record of {@code node} in {@code table}, making the records up to it first. */
  static <T> T grown(List<T> table, int node, Supplier<T> fresh) {
    while (table.size() <= node) {
      table.add(fresh.get());
    }
    return table.get(node);
  }
}
