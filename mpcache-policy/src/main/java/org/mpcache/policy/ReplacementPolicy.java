package org.mpcache.policy;

import java.util.List;

/**
 * Cluster-wide cache decisions over block copies held by nodes, in block units. The same classes
 * run in the master (driven by slaves' reports) and in the simulator (driven by a trace). Pure
 * state, no I/O, not thread-safe: the caller serialises calls.
 *
 * <p>Nodes are dense numbers from 0; blocks are cluster-unique ids; each block belongs to one
 * data set. A node caches at most its capacity in blocks.
 */
public interface ReplacementPolicy {
  /** The policy's name as a key value selects it ({@link ReplacementPolicies#NAMES}). */
  String name();

  /** Declares a node, or changes its capacity (a smaller one takes effect on its next miss). */
  void setCapacity(int node, int capacityBlocks);

  /**
   * Frees {@code blocks} of the node's copies through the policy's own scheme (its Dynamic Space
   * Tuner lent their room to localized data); returns the node's blocks to delete now.
   * Evictions the scheme makes on other nodes wait for them as pending ones.
   */
  long[] evictFrom(int node, int blocks);

  /**
   * A job starts reading a data set (one data-set access in the paper's terms; admission
   * control measures its access distance in these).
   */
  void dataSetAccessed(DataSet dataSet);

  /**
   * Node {@code node} reads block {@code block} of {@code dataSet}. On a hit the policy updates
   * its ranking; on an admitted miss it records the block as cached on the node once the node
   * has evicted {@link CacheDecision#evict()}.
   */
  CacheDecision access(int node, long block, DataSet dataSet);

  /**
   * The node already holds a copy of the block (it registered after a master restart, or cached
   * it on its own while the master was away): record it without counting an access or evicting.
   * A copy the policy has condemned on the node stays condemned.
   */
  void restore(int node, long block, DataSet dataSet);

  /** True when the policy considers the block cached on the node. */
  boolean isCached(int node, long block);

  /** The node dropped a copy on its own (invalidated, corrupt, fill failed). */
  void removed(int node, long block);

  /**
   * Blocks already condemned on this node that it has not been told to delete (the paper's
   * To_Del), handed over once; empty for policies that only evict on the requesting node.
   */
  long[] drainPendingEvictions(int node);

  /** How many blocks {@link #drainPendingEvictions} would hand over to the node now. */
  default int pendingEvictions(int node) {
    return 0;
  }

  /**
   * Forgets everything of the node (it was lost, or is about to register its copies anew): its
   * copies, its capacity (declared again by {@link #setCapacity}) and its To_Del, which is
   * returned.
   */
  long[] forgetNode(int node);

  /** Blocks the node holds, condemned ones included. */
  int usedBlocks(int node);

  /**
   * Forgets a data set that holds no copy, with all the policy and its admission filter keep of
   * it (its rank, its access record), so that its id may name another data set; false, forgetting
   * nothing, while it holds copies.
   */
  boolean forgetDataSet(int dataSetId);

  /** Data sets the policy or its admission filter keeps a record of. */
  int trackedDataSets();

  /** Visits every copy the policy considers cached (condemned ones excluded). */
  void forEachCached(CachedCopyVisitor visitor);

  /** A data set's rank where the policy ranks data sets; NaN otherwise or when nothing is cached. */
  default double priority(int dataSetId) {
    return Double.NaN;
  }

  /**
   * The data sets evicted whole since the last call, oldest first, handed over once: the caller
   * knows why it asked ({@link #access}, {@link #evictFrom}). None for block-level policies, which
   * evict copies, not data sets.
   */
  default List<DataSetEviction> takeDataSetsEvicted() {
    return List.of();
  }

  /**
   * A data set evicted whole: its rank then, the nodes that held it and the copies that go on
   * them.
   */
  record DataSetEviction(int dataSetId, double priority, int nodes, int copies) {
  }

  /** Receives cached copies from {@link #forEachCached}. */
  @FunctionalInterface
  interface CachedCopyVisitor {
    void visit(int node, long block, int dataSetId);
  }
}
