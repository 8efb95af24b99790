package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A replacement policy under an operator's control (docs/operations.md, "Steering the cache"):
 * <ul>
 *   <li><b>Pinned data sets</b> are held outside the policy, which never sees their copies and so
 *   never evicts them: each node's capacity reaches the policy less that node's pinned copies.
 *   A pinned copy is admitted at its first read, without the policy's admission, while the node's
 *   pinned copies stay under {@code pinShare} of its capacity; room for it comes from the policy's
 *   own eviction scheme on that node.</li>
 *   <li><b>Freed data sets</b> lose every copy: the policy forgets them at once and each node is
 *   told to delete its copies at its next heartbeat ({@link #drainFreed}, beside the policy's own
 *   To_Del).</li>
 * </ul>
 * Pure state like the policy it wraps; pinning, unpinning and freeing walk every copy, which an
 * admin's call may do.
 */
public final class ControlledPolicy implements ReplacementPolicy {
  private static final long[] NONE = new long[0];
  private static final int NOT_PINNED = -1;

  private final ReplacementPolicy policy;
  private double pinShare;
  private final Set<Integer> pinned = new HashSet<>();
  private final List<Node> nodes = new ArrayList<>();

  private static final class Node {
    int capacity;
    /** Pinned copy to its data set. */
    final LongIntMap pinnedCopies = new LongIntMap();
    /** Copies of freed data sets the node has not been told to delete yet. */
    final List<Long> freed = new ArrayList<>();
  }

  /**
   * @param pinShare the share of a node's capacity its pinned copies may take, 0 to 1
   */
  public ControlledPolicy(ReplacementPolicy policy, double pinShare) {
    this.policy = policy;
    setPinShare(pinShare);
  }

  /**
   * A new share for pinned copies (a refresh); a node already over it keeps its pinned copies
   * and admits no new one until under it.
   */
  public void setPinShare(double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("pin share " + share + " must be within 0..1");
    }
    this.pinShare = share;
  }

  /** Pins the data set: its copies leave the policy's hands and stay while it is pinned. */
  public void pin(int dataSetId) {
    if (!pinned.add(dataSetId)) {
      return;
    }
    for (long[] copy : copiesInPolicy(dataSetId)) {
      takeFromPolicy((int) copy[0], copy[1], dataSetId);
    }
  }

  /** Unpins the data set: its copies return to the policy, which ranks them from now on. */
  public void unpin(DataSet dataSet) {
    if (!pinned.remove(dataSet.id())) {
      return;
    }
    for (int nodeId = 0; nodeId < nodes.size(); nodeId++) {
      for (long block : pinnedCopiesOf(nodes.get(nodeId), dataSet.id())) {
        giveToPolicy(nodeId, block, dataSet);
      }
    }
  }

  public boolean isPinned(int dataSetId) {
    return pinned.contains(dataSetId);
  }

  /**
   * Drops every copy of the data set, pinned or not (a pin stays: reads fill it again); each node
   * hears which of its copies to delete through {@link #drainFreed}. Returns what was dropped.
   */
  public Freed free(int dataSetId) {
    int dropped = 0;
    Set<Integer> holders = new HashSet<>();
    for (long[] copy : copiesInPolicy(dataSetId)) {
      policy.removed((int) copy[0], copy[1]);
      nodes.get((int) copy[0]).freed.add(copy[1]);
      holders.add((int) copy[0]);
      dropped++;
    }
    for (int nodeId = 0; nodeId < nodes.size(); nodeId++) {
      Node node = nodes.get(nodeId);
      for (long block : pinnedCopiesOf(node, dataSetId)) {
        release(nodeId, block);
        node.freed.add(block);
        holders.add(nodeId);
        dropped++;
      }
    }
    return new Freed(holders.size(), dropped);
  }

  /** The copies {@link #free} dropped, and on how many nodes. */
  public record Freed(int nodes, int copies) {
  }

  /** Pinned copies on every node. */
  public int pinnedCopies() {
    int copies = 0;
    for (Node node : nodes) {
      copies += node.pinnedCopies.size();
    }
    return copies;
  }

  /** Copies of freed data sets the node is to delete, handed over once. */
  public long[] drainFreed(int nodeId) {
    if (nodeId >= nodes.size()) {
      return NONE;
    }
    List<Long> freed = nodes.get(nodeId).freed;
    long[] blocks = freed.stream().mapToLong(Long::longValue).toArray();
    freed.clear();
    return blocks;
  }

  @Override
  public String name() {
    return policy.name();
  }

  /** The capacity last declared for the node by {@link #setCapacity}, or -1 if none was. */
  public int declaredCapacity(int nodeId) {
    return nodeId < nodes.size() ? nodes.get(nodeId).capacity : -1;
  }

  @Override
  public void setCapacity(int nodeId, int capacityBlocks) {
    node(nodeId).capacity = capacityBlocks;
    policy.setCapacity(nodeId, policyCapacity(nodeId));
  }

  @Override
  public long[] evictFrom(int nodeId, int blocks) {
    return policy.evictFrom(nodeId, blocks);
  }

  @Override
  public void dataSetAccessed(DataSet dataSet) {
    policy.dataSetAccessed(dataSet);
  }

  /**
   * A copy held on either side is a hit; one whose data set was pinned or unpinned since it was
   * cached (a file moved between directories) first moves to the side its data set now belongs.
   */
  @Override
  public CacheDecision access(int nodeId, long block, DataSet dataSet) {
    boolean pinnedSet = pinned.contains(dataSet.id());
    Node node = node(nodeId);
    if (node.pinnedCopies.containsKey(block)) {
      if (!pinnedSet) {
        giveToPolicy(nodeId, block, dataSet);
      }
      return CacheDecision.HIT;
    }
    if (!pinnedSet) {
      return policy.access(nodeId, block, dataSet);
    }
    if (policy.isCached(nodeId, block)) {
      takeFromPolicy(nodeId, block, dataSet.id());
      return CacheDecision.HIT;
    }
    if (node.pinnedCopies.size() + 1 > pinLimit(node)) {
      return CacheDecision.REJECTED;
    }
    hold(nodeId, block, dataSet.id());
    int over = policy.usedBlocks(nodeId) - policyCapacity(nodeId);
    return CacheDecision.admitAfterEvicting(over > 0 ? policy.evictFrom(nodeId, over) : NONE);
  }

  @Override
  public void restore(int nodeId, long block, DataSet dataSet) {
    if (!pinned.contains(dataSet.id())) {
      policy.restore(nodeId, block, dataSet);
      return;
    }
    if (!node(nodeId).freed.contains(block)) { // a fill that ended after its data set was freed
      hold(nodeId, block, dataSet.id());
    }
  }

  @Override
  public boolean isCached(int nodeId, long block) {
    return nodeId < nodes.size() && nodes.get(nodeId).pinnedCopies.containsKey(block)
        || policy.isCached(nodeId, block);
  }

  @Override
  public void removed(int nodeId, long block) {
    if (!release(nodeId, block)) {
      policy.removed(nodeId, block);
    }
  }

  /** The policy's own To_Del; copies of freed data sets come through {@link #drainFreed}. */
  @Override
  public long[] drainPendingEvictions(int nodeId) {
    return policy.drainPendingEvictions(nodeId);
  }

  /** The policy's To_Del and the copies of freed data sets. */
  @Override
  public int pendingEvictions(int nodeId) {
    return policy.pendingEvictions(nodeId)
        + (nodeId < nodes.size() ? nodes.get(nodeId).freed.size() : 0);
  }

  @Override
  public long[] forgetNode(int nodeId) {
    long[] freed = drainFreed(nodeId);
    node(nodeId).pinnedCopies.clear();
    long[] condemned = policy.forgetNode(nodeId);
    nodes.get(nodeId).capacity = 0;
    long[] all = Arrays.copyOf(condemned, condemned.length + freed.length);
    System.arraycopy(freed, 0, all, condemned.length, freed.length);
    return all;
  }

  @Override
  public int usedBlocks(int nodeId) {
    return policy.usedBlocks(nodeId)
        + (nodeId < nodes.size() ? nodes.get(nodeId).pinnedCopies.size() : 0);
  }

  @Override
  public boolean forgetDataSet(int dataSetId) {
    // Only pinned data sets hold pinned copies: the walk is spared the idle ones forgotten in
    // bulk at each heartbeat.
    if (pinned.contains(dataSetId)) {
      for (Node node : nodes) {
        if (pinnedCopiesOf(node, dataSetId).length > 0) {
          return false;
        }
      }
    }
    if (!policy.forgetDataSet(dataSetId)) {
      return false;
    }
    pinned.remove(dataSetId); // the namespace says so again when the data set is seen again
    return true;
  }

  @Override
  public int trackedDataSets() {
    return policy.trackedDataSets() + pinned.size();
  }

  @Override
  public void forEachCached(CachedCopyVisitor visitor) {
    policy.forEachCached(visitor);
    CachedCopies.forEach(nodes.size(), nodeId -> nodes.get(nodeId).pinnedCopies, visitor);
  }

  @Override
  public double priority(int dataSetId) {
    return policy.priority(dataSetId);
  }

  @Override
  public List<DataSetEviction> takeDataSetsEvicted() {
    return policy.takeDataSetsEvicted();
  }

  /** A copy the policy held becomes a pinned one. */
  private void takeFromPolicy(int nodeId, long block, int dataSetId) {
    policy.removed(nodeId, block);
    hold(nodeId, block, dataSetId);
  }

  /** A pinned copy returns to the policy. */
  private void giveToPolicy(int nodeId, long block, DataSet dataSet) {
    release(nodeId, block);
    policy.restore(nodeId, block, dataSet);
  }

  /** Records a pinned copy; the policy's room on the node shrinks by it. */
  private void hold(int nodeId, long block, int dataSetId) {
    node(nodeId).pinnedCopies.put(block, dataSetId);
    policy.setCapacity(nodeId, policyCapacity(nodeId));
  }

  /** Drops a pinned copy, if the node holds it as one; the policy's room grows by it. */
  private boolean release(int nodeId, long block) {
    if (nodeId >= nodes.size()
        || nodes.get(nodeId).pinnedCopies.remove(block, NOT_PINNED) == NOT_PINNED) {
      return false;
    }
    policy.setCapacity(nodeId, policyCapacity(nodeId));
    return true;
  }

  private int pinLimit(Node node) {
    return (int) (node.capacity * pinShare);
  }

  /** What the node's capacity leaves the policy beside the pinned copies. */
  private int policyCapacity(int nodeId) {
    Node node = nodes.get(nodeId);
    return Math.max(0, node.capacity - node.pinnedCopies.size());
  }

  /** The data set's copies the policy holds, as {node, block}. */
  private List<long[]> copiesInPolicy(int dataSetId) {
    List<long[]> copies = new ArrayList<>();
    policy.forEachCached((nodeId, block, id) -> {
      if (id == dataSetId) {
        copies.add(new long[] {nodeId, block});
      }
    });
    return copies;
  }

  private static long[] pinnedCopiesOf(Node node, int dataSetId) {
    List<Long> blocks = new ArrayList<>();
    node.pinnedCopies.forEach((block, id) -> {
      if (id == dataSetId) {
        blocks.add(block);
      }
    });
    return blocks.stream().mapToLong(Long::longValue).toArray();
  }

  private Node node(int nodeId) {
    return NodeTables.grown(nodes, nodeId, Node::new);
  }
}
