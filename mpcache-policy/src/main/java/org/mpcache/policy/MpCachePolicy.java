package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * mpCache's Replace Arbitrator (the mpCache paper §3.3, Algorithm 1) with its admission control:
 * data sets are ranked by {@code Pr = Full + Clock + Fr}, {@code Fr = Blocks_Access / Size}, with
 * the {@code Full} bonus while every block of the data set is cached and {@code Clock} set to the
 * priority of each evicted data set (ageing). A miss that needs room uses the node's condemned
 * blocks (To_Del) first; otherwise the lowest-priority data sets are evicted whole, on every node,
 * and the other nodes' blocks are recorded in To_Del until those nodes are told.
 *
 * <p>Where this deviates from Algorithm 1: victims are the lowest-priority data sets <em>that
 * hold copies on the requesting node</em> ({@link VictimScope#NODE}); as published, victims are
 * the lowest in the whole queue ({@link VictimScope#CLUSTER}), so a data set that holds nothing
 * where room is needed is evicted everywhere and frees nothing, and the next ones go too until
 * the node has room (docs/policies.md gives the numbers). Where Algorithm 1 is silent: a data set
 * never evicts itself; admission weighs every victim; condemned blocks count as free room.
 *
 * <p>For scale, a copy costs two primitive map entries (the node's block to data set, the data
 * set's block to holder count), and a hit only counts: data sets touched since the last decision
 * are re-ranked once, right before the next one needs the order (ranks only change between
 * decisions through accesses, so the order a decision sees is the same).
 */
public final class MpCachePolicy implements ReplacementPolicy {
  public static final double DEFAULT_FULL_BONUS = 1.0;
  /** The admission filter it runs unless told otherwise: the paper's, at every miss. */
  public static final String OWN_FILTER = "admission-per-block";

  /** Where victims are chosen from. */
  public enum VictimScope {
    /** Data sets holding copies on the node that needs room (the default). */
    NODE,
    /** The whole queue, as Algorithm 1 is published. */
    CLUSTER
  }

  private static final long[] NONE = new long[0];
  private static final int NOT_CACHED = -1;

  private final double fullBonus;
  private final VictimScope victimScope;
  private final AdmissionFilter admission;
  private final List<Node> nodes = new ArrayList<>();
  /** By data set id (dense). */
  private final DataSetSlots<DataSetState> dataSets = new DataSetSlots<>();
  /**
   * Lowest priority first; among equal priorities the one ranked longest ago (the least recently
   * read), so that ties break by what happened, not by how data sets were numbered.
   */
  private final TreeSet<DataSetState> queue = new TreeSet<>(
      Comparator.comparingDouble((DataSetState d) -> d.priority)
          .thenComparingLong(d -> d.rankedAt).thenComparingInt(d -> d.id()));
  /** Rankings made so far: each data set's rank carries the count at its making. */
  private long rankings;
  /** Data sets accessed since the queue was last brought up to date. */
  private final List<DataSetState> unranked = new ArrayList<>();
  private double clock;
  private final List<DataSetEviction> dataSetsEvicted = new ArrayList<>();

  /** One data set's place in the cache. */
  private static final class DataSetState {
    DataSet dataSet;
    /** Block reads served or admitted since the data set entered the cache. */
    long blocksAccess;
    /** The rank it has in the queue (while queued), and when that rank was made. */
    double priority;
    long rankedAt;
    boolean queued;
    boolean unranked;
    /** Nodes caching each of its blocks, by block. */
    final LongIntMap holders = new LongIntMap();
    /** Copies per node, to know what evicting the data set frees on a node. */
    final Map<Integer, Integer> copiesPerNode = new HashMap<>();

    DataSetState(DataSet dataSet) {
      this.dataSet = dataSet;
    }

    int id() {
      return dataSet.id();
    }

    boolean full() {
      return holders.size() == dataSet.blocks();
    }
  }

  private static final class Node {
    int capacity;
    /** Cached block to its data set id. */
    final LongIntMap cached = new LongIntMap();
    /** Data set id to its copies here: the candidates for victims node-scoped. */
    final LongIntMap dataSets = new LongIntMap();
    /** To_Del: blocks evicted here by the arbitrator that the node has not been told of. */
    final LinkedHashSet<Long> condemned = new LinkedHashSet<>();

    int used() {
      return cached.size() + condemned.size();
    }
  }

  public MpCachePolicy() {
    this(DEFAULT_FULL_BONUS);
  }

  public MpCachePolicy(double fullBonus) {
    this(fullBonus, new AdmissionControl(AdmissionControl.BACK_TO_BACK_DISTANCE, true),
        VictimScope.NODE);
  }

  /** {@code admission} decides the misses that need room. */
  public MpCachePolicy(double fullBonus, AdmissionFilter admission, VictimScope victimScope) {
    this.fullBonus = fullBonus;
    this.victimScope = victimScope;
    this.admission = admission;
  }

  @Override
  public String name() {
    return ReplacementPolicies.name(
        victimScope == VictimScope.NODE ? "mpcache" : "mpcache-as-published", OWN_FILTER,
        admission);
  }

  @Override
  public void setCapacity(int node, int capacityBlocks) {
    node(node).capacity = capacityBlocks;
  }

  @Override
  public void dataSetAccessed(DataSet dataSet) {
    admission.accessed(dataSet);
  }

  @Override
  public CacheDecision access(int nodeId, long block, DataSet dataSet) {
    Node node = node(nodeId);
    DataSetState state = stateOf(dataSet);
    if (node.cached.containsKey(block)) {
      state.blocksAccess++;
      touched(state);
      return CacheDecision.HIT;
    }
    if (node.capacity <= 0) {
      return CacheDecision.REJECTED;
    }
    long[] evict;
    if (node.condemned.remove(block)) {
      evict = NONE; // condemned here but not yet deleted: keep the copy after all
    } else if (node.cached.size() < node.capacity) {
      evict = takeCondemned(node, node.used() + 1 - node.capacity);
    } else {
      if (!admission.mayAdmit(dataSet)) {
        return CacheDecision.REJECTED;
      }
      rankTouched();
      List<DataSetState> victims = victimsFor(nodeId, node.used() + 1 - node.capacity, state);
      if (victims == null || !admission.admits(dataSet, victims.stream().map(v -> v.dataSet)
          .toList())) {
        return CacheDecision.REJECTED;
      }
      List<Long> evicted = new ArrayList<>();
      for (DataSetState victim : victims) {
        clock = victim.priority;
        evictEverywhere(victim, nodeId, evicted);
      }
      evict = evicted.stream().mapToLong(Long::longValue).toArray();
    }
    addCopy(node, nodeId, block, state);
    state.blocksAccess++;
    touched(state);
    return CacheDecision.admitAfterEvicting(evict);
  }

  @Override
  public long[] evictFrom(int nodeId, int blocks) {
    Node node = node(nodeId);
    long[] condemned = takeCondemned(node, Math.min(blocks, node.condemned.size()));
    int needed = Math.min(blocks - condemned.length, node.cached.size());
    if (needed <= 0) {
      return condemned;
    }
    rankTouched();
    List<Long> evicted = new ArrayList<>();
    for (long block : condemned) {
      evicted.add(block);
    }
    for (DataSetState victim : victimsFor(nodeId, needed, null)) {
      clock = victim.priority;
      evictEverywhere(victim, nodeId, evicted);
    }
    return evicted.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public List<DataSetEviction> takeDataSetsEvicted() {
    List<DataSetEviction> taken = List.copyOf(dataSetsEvicted);
    dataSetsEvicted.clear();
    return taken;
  }

  @Override
  public void restore(int nodeId, long block, DataSet dataSet) {
    Node node = node(nodeId);
    if (node.condemned.contains(block) || node.cached.containsKey(block)) {
      return; // a condemned copy reported by a heartbeat that crossed its eviction stays so
    }
    DataSetState state = stateOf(dataSet);
    addCopy(node, nodeId, block, state);
    touched(state);
  }

  @Override
  public boolean forgetDataSet(int dataSetId) {
    DataSetState state = dataSets.get(dataSetId);
    if (state != null && state.holders.size() > 0) {
      return false;
    }
    if (state != null && state.unranked) {
      unranked.remove(state); // touched since the last ranking, which would skip it anyway
    }
    dataSets.clear(dataSetId);
    admission.forget(dataSetId);
    return true;
  }

  @Override
  public int trackedDataSets() {
    return dataSets.count() + admission.trackedDataSets();
  }

  /** The data set's state, following a change of its size (files added or removed). */
  private DataSetState stateOf(DataSet dataSet) {
    DataSetState state = dataSets.getOrCreate(dataSet.id(), () -> new DataSetState(dataSet));
    if (state.dataSet.blocks() != dataSet.blocks()) {
      state.dataSet = dataSet;
      touched(state);
    }
    return state;
  }

  private static void addCopy(Node node, int nodeId, long block, DataSetState state) {
    node.cached.put(block, state.id());
    node.dataSets.add(state.id(), 1);
    state.holders.add(block, 1);
    state.copiesPerNode.merge(nodeId, 1, Integer::sum);
  }

  /**
   * The lowest-priority data sets whose eviction frees {@code needed} blocks on the node (among
   * those holding copies there, with {@link VictimScope#NODE}), never the data set being cached
   * ({@code incoming}, null for none); null when even all of them would not.
   */
  private List<DataSetState> victimsFor(int nodeId, int needed, DataSetState incoming) {
    List<DataSetState> victims = new ArrayList<>();
    int freed = 0;
    if (victimScope == VictimScope.NODE) {
      // Usually one or two victims among the node's data sets: pick the lowest each time.
      List<DataSetState> here = new ArrayList<>();
      nodes.get(nodeId).dataSets.forEach((id, copies) -> here.add(dataSets.get((int) id)));
      here.remove(incoming);
      while (freed < needed && !here.isEmpty()) {
        DataSetState lowest = java.util.Collections.min(here, queue.comparator());
        here.remove(lowest);
        victims.add(lowest);
        freed += lowest.copiesPerNode.getOrDefault(nodeId, 0);
      }
      return freed >= needed ? victims : null;
    }
    for (DataSetState candidate : queue) {
      if (freed >= needed) {
        break;
      }
      if (candidate != incoming) {
        victims.add(candidate);
        freed += candidate.copiesPerNode.getOrDefault(nodeId, 0);
      }
    }
    return freed >= needed ? victims : null;
  }

  /** Evicts every copy of the data set: the requester's into {@code evicted}, others to To_Del. */
  private void evictEverywhere(DataSetState victim, int requester, List<Long> evicted) {
    unqueue(victim);
    dataSetsEvicted.add(new DataSetEviction(victim.id(), victim.priority, victim.copiesPerNode.size(),
        victim.copiesPerNode.values().stream().mapToInt(Integer::intValue).sum()));
    for (int holder : victim.copiesPerNode.keySet()) {
      Node node = nodes.get(holder);
      node.dataSets.remove(victim.id(), 0);
      victim.holders.forEach((block, count) -> {
        if (node.cached.get(block, NOT_CACHED) == victim.id()) {
          node.cached.remove(block, NOT_CACHED);
          if (holder == requester) {
            evicted.add(block);
          } else {
            node.condemned.add(block);
          }
        }
      });
    }
    victim.holders.clear();
    victim.copiesPerNode.clear();
    victim.blocksAccess = 0;
  }

  private static long[] takeCondemned(Node node, int count) {
    if (count <= 0) {
      return NONE;
    }
    long[] taken = new long[count];
    var it = node.condemned.iterator();
    for (int i = 0; i < count; i++) {
      taken[i] = it.next();
      it.remove();
    }
    return taken;
  }

  /** The data set's rank may have changed: it is re-ranked before the queue is next used. */
  private void touched(DataSetState state) {
    if (!state.unranked) {
      state.unranked = true;
      unranked.add(state);
    }
  }

  /** Equation (2), {@code Pr = Full + Clock + Blocks_Access / Size}, for every touched data set. */
  private void rankTouched() {
    for (DataSetState state : unranked) {
      state.unranked = false;
      if (state.holders.size() == 0) {
        continue;
      }
      if (state.queued) {
        queue.remove(state);
      }
      state.priority = (state.full() ? fullBonus : 0) + clock
          + (double) state.blocksAccess / state.dataSet.blocks();
      state.rankedAt = ++rankings;
      queue.add(state);
      state.queued = true;
    }
    unranked.clear();
  }

  private void unqueue(DataSetState state) {
    if (state.queued) {
      queue.remove(state);
      state.queued = false;
    }
  }

  @Override
  public boolean isCached(int node, long block) {
    return node < nodes.size() && nodes.get(node).cached.containsKey(block);
  }

  @Override
  public void removed(int nodeId, long block) {
    Node node = node(nodeId);
    node.condemned.remove(block);
    int dataSetId = node.cached.remove(block, NOT_CACHED);
    if (dataSetId == NOT_CACHED) {
      return;
    }
    DataSetState state = dataSets.get(dataSetId);
    if (state.holders.add(block, -1) == 0) {
      state.holders.remove(block, 0);
    }
    if (state.copiesPerNode.merge(nodeId, -1, Integer::sum) == 0) {
      state.copiesPerNode.remove(nodeId);
    }
    if (node.dataSets.add(dataSetId, -1) == 0) {
      node.dataSets.remove(dataSetId, 0);
    }
    if (state.holders.size() == 0) {
      unqueue(state);
      state.blocksAccess = 0;
    } else {
      touched(state);
    }
  }

  @Override
  public long[] drainPendingEvictions(int nodeId) {
    Node node = node(nodeId);
    return takeCondemned(node, node.condemned.size());
  }

  @Override
  public int pendingEvictions(int nodeId) {
    return nodeId < nodes.size() ? nodes.get(nodeId).condemned.size() : 0;
  }

  @Override
  public long[] forgetNode(int nodeId) {
    long[] condemned = drainPendingEvictions(nodeId);
    for (long block : node(nodeId).cached.keys()) {
      removed(nodeId, block);
    }
    node(nodeId).capacity = 0;
    return condemned;
  }

  @Override
  public int usedBlocks(int node) {
    return node(node).used();
  }

  @Override
  public void forEachCached(CachedCopyVisitor visitor) {
    CachedCopies.forEach(nodes.size(), nodeId -> nodes.get(nodeId).cached, visitor);
  }

  /** The data set's current priority, or NaN when it has nothing cached. */
  @Override
  public double priority(int dataSetId) {
    rankTouched();
    DataSetState state = dataSets.get(dataSetId);
    return state == null || !state.queued ? Double.NaN : state.priority;
  }

  public double clock() {
    return clock;
  }

  private Node node(int node) {
    return NodeTables.grown(nodes, node, Node::new);
  }
}
