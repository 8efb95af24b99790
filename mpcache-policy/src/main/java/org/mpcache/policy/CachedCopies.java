package org.mpcache.policy;

import java.util.function.IntFunction;

import org.mpcache.policy.ReplacementPolicy.CachedCopyVisitor;

/** What the data-set policies share about their nodes' maps of cached block to data set. */
final class CachedCopies {
  private CachedCopies() {
  }

  /** Visits every copy of nodes 0 to {@code nodes - 1}, whose maps {@code cachedOn} gives. */
  static void forEach(int nodes, IntFunction<LongIntMap> cachedOn, CachedCopyVisitor visitor) {
    for (int nodeId = 0; nodeId < nodes; nodeId++) {
      int holder = nodeId;
      cachedOn.apply(nodeId).forEach((block, dataSetId) ->
          visitor.visit(holder, block, dataSetId));
    }
  }
}
