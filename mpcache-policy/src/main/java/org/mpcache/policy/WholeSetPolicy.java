package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A data-set policy built for job hits (docs/policies.md, "wholeset"): a job only gains when all
 * of its input is cached, so data sets are admitted whole or not at all, and broken ones go
 * first.
 *
 * <ul>
 *   <li><b>Rank.</b> Each data set's access count decays by half every {@code halfLife} data-set
 *   accesses; data sets are ranked by that rate per block (what a cached block earns). Ranks
 *   change only when their own data set is accessed: the rate is kept as
 *   {@code log2(count) + accesses / halfLife}, which ages every data set alike. The policy may
 *   keep counts under several half-lives and rank by any one of them ({@link #rankBy}): a driver
 *   that learns which memory serves the workload best switches to it.</li>
 *   <li><b>Admission, once per data-set access.</b> The first miss of an access decides for all
 *   of its misses: admitted when the cluster has room for the blocks the data set lacks, else
 *   when its rate exceeds, by {@code margin}, the summed rates of the complete data sets that
 *   would leave to make that room, lowest rate per block first (an incomplete one earns no job
 *   hits, so it costs nothing).</li>
 *   <li><b>Eviction on the node that needs room only.</b> Room on a node comes from the data
 *   sets holding copies there: incomplete ones first, then the lowest rate per block; only those
 *   copies go. A data set that lost a copy is incomplete, so its copies elsewhere go first where
 *   room is needed next, and nothing is condemned on other nodes (no To_Del). A data set whose
 *   access was admitted in the last {@code protectedAccesses} data-set accesses is not evicted
 *   to fill another (concurrent jobs fill several at once), nor is the one being filled.</li>
 * </ul>
 *
 * <p>Cost: a block read is a map lookup; a miss that evicts costs O(log n) per victim; a data-set
 * access re-ranks its data set in the global order, and on the nodes holding it only when an
 * eviction there reaches it (then O(log n) per node holding it, once for all the accesses since).
 */
public final class WholeSetPolicy implements ReplacementPolicy {
  /** Half-life of a data set's access count, in data-set accesses. */
  public static final double DEFAULT_HALF_LIFE = 100_000;
  /** How much more than its victims a data set must be worth to be admitted (0: more at all). */
  public static final double DEFAULT_MARGIN = 0;
  /**
   * Data-set accesses (its own and later ones) during which an admitted data set is not evicted
   * to fill another: jobs running at once fill several.
   */
  public static final int DEFAULT_PROTECTED_ACCESSES = 4;

  private static final long[] NONE = new long[0];
  private static final int NOT_CACHED = -1;
  /** The global order; an access moves the data set there at once. */
  private static final Comparator<State> RANKED_ORDER = evictionOrder(s -> s.rankedBy);
  /**
   * The nodes' order. An access would move the data set later on every node holding it, so it
   * only marks it stale; a walk in this order moves a stale data set on when it reaches it
   * ({@link #evictOn}), which keeps the walk in the true order because a stale data set only
   * belongs later than it is held.
   */
  private static final Comparator<State> NODE_ORDER = evictionOrder(s -> s.nodesBy);

  /** The half-lives counts are kept under; ranks follow the one at {@link #rateIndex}. */
  private final double[] halfLives;
  private int rateIndex;
  private final double margin;
  private final int protectedAccesses;
  private final List<Node> nodes = new ArrayList<>();
  private final DataSetSlots<State> dataSets = new DataSetSlots<>();
  /** Data sets holding copies, in eviction order: where admission looks for what would leave. */
  private final TreeSet<State> ranked = new TreeSet<>(RANKED_ORDER);
  /** The blocks each data set holds on each node (evictions take the newest first). */
  private final CopiesByNode copiesByNode = new CopiesByNode();
  private long accesses;
  private long capacityBlocks;
  private long usedBlocks;
  private final List<DataSetEviction> dataSetsEvicted = new ArrayList<>();

  private static final class State {
    DataSet dataSet;
    /**
     * Under each half-life, {@code log2(decayed access count) + accessesThen / halfLife}; no
     * accesses: -∞.
     */
    final double[] logRates;
    long lastAccess = -1;
    /** The access the admission decision was made for, and the decision. */
    long decidedFor = -1;
    boolean admitted;
    /** Copies by block, and blocks with at least one copy. */
    final LongIntMap copies = new LongIntMap();
    int copyCount;
    /** The values the ordered sets hold it by (changed only while it is out of them). */
    final OrderKey rankedBy = new OrderKey();
    final OrderKey nodesBy = new OrderKey();
    /** In the ordered sets (it holds copies). */
    boolean inOrder;
    /** Accessed since the nodes' sets took it: it belongs later in them. */
    boolean staleOnNodes;

    State(DataSet dataSet, int halfLives) {
      this.dataSet = dataSet;
      logRates = new double[halfLives];
      Arrays.fill(logRates, Double.NEGATIVE_INFINITY);
    }

    int id() {
      return dataSet.id();
    }

    boolean complete() {
      return copies.size() == dataSet.blocks();
    }

    /**
     * Rate per block under the half-life at {@code index}, as a time-independent logarithm
     * (comparable between data sets).
     */
    double density(int index) {
      return logRates[index] - Math.log(dataSet.blocks()) / Math.log(2);
    }
  }

  /** What a data set is ordered by, as of when an ordered set took it. */
  private static final class OrderKey {
    boolean complete;
    double density;
    long lastAccess;

    void set(State state, int rateIndex) {
      complete = state.complete();
      density = state.density(rateIndex);
      lastAccess = state.lastAccess;
    }
  }

  /** Incomplete first, then the lowest rate per block, then the least recently accessed. */
  private static Comparator<State> evictionOrder(Function<State, OrderKey> key) {
    return Comparator.comparing((State s) -> key.apply(s).complete)
        .thenComparingDouble(s -> key.apply(s).density)
        .thenComparingLong(s -> key.apply(s).lastAccess)
        .thenComparingInt(State::id);
  }

  /** Which data sets an eviction leaves alone. */
  private enum Spared {
    /** Those admitted within the protected accesses: to fill another. */
    PROTECTED,
    /** Those admitted within the protected accesses and not complete yet: to shrink a node. */
    FILLING,
    NONE;

    boolean spares(WholeSetPolicy policy, State state) {
      return switch (this) {
        case PROTECTED -> policy.isProtected(state);
        case FILLING -> policy.isProtected(state) && !state.complete();
        case NONE -> false;
      };
    }
  }

  private static final class Node {
    int capacity;
    /** Cached block to its data set id. */
    final LongIntMap cached = new LongIntMap();
    /** Data sets holding copies here, in eviction order as of their last access seen here. */
    final TreeSet<State> dataSets = new TreeSet<>(NODE_ORDER);
  }

  public WholeSetPolicy() {
    this(DEFAULT_HALF_LIFE, DEFAULT_MARGIN, DEFAULT_PROTECTED_ACCESSES);
  }

  public WholeSetPolicy(double halfLife, double margin, int protectedAccesses) {
    this(new double[] {halfLife}, margin, protectedAccesses);
  }

  /** Keeps counts under each of {@code halfLives}; ranks by the first until {@link #rankBy}. */
  public WholeSetPolicy(double[] halfLives, double margin, int protectedAccesses) {
    if (halfLives.length == 0 || Arrays.stream(halfLives).anyMatch(h -> !(h > 0))
        || !(margin >= 0) || protectedAccesses < 1) {
      throw new IllegalArgumentException("half-lives " + Arrays.toString(halfLives)
          + " must be > 0, margin " + margin + " >= 0 and protected accesses "
          + protectedAccesses + " >= 1");
    }
    this.halfLives = halfLives.clone();
    this.margin = margin;
    this.protectedAccesses = protectedAccesses;
  }

  /** {@code wholeset}, with its parameters when they are not the defaults. */
  @Override
  public String name() {
    boolean defaults = halfLives.length == 1 && halfLives[0] == DEFAULT_HALF_LIFE
        && margin == DEFAULT_MARGIN && protectedAccesses == DEFAULT_PROTECTED_ACCESSES;
    return defaults ? "wholeset" : String.format(Locale.ROOT, "wholeset:%s:%s:%d",
        halfLivesName(halfLives), margin, protectedAccesses);
  }

  /** Half-lives as a policy's name gives them: {@code 100.0/100000.0}. */
  static String halfLivesName(double[] halfLives) {
    return Arrays.stream(halfLives).mapToObj(Double::toString)
        .collect(Collectors.joining("/"));
  }

  /**
   * Ranks data sets by their counts under the half-life at {@code index} of those given at
   * construction from now on: every ordered set is sorted again, O(n log n) in the data sets
   * holding copies.
   */
  public void rankBy(int index) {
    if (Objects.checkIndex(index, halfLives.length) == rateIndex) {
      return;
    }
    List<State> held = new ArrayList<>(ranked);
    held.forEach(this::unorder);
    rateIndex = index;
    held.forEach(this::order);
  }

  /** The half-life ranks follow. */
  public double rankingHalfLife() {
    return halfLives[rateIndex];
  }

  @Override
  public void setCapacity(int node, int capacity) {
    Node n = node(node);
    capacityBlocks += capacity - n.capacity;
    n.capacity = capacity;
  }

  @Override
  public void dataSetAccessed(DataSet dataSet) {
    accesses++;
    State state = stateOf(dataSet);
    if (state.inOrder) {
      ranked.remove(state);
    }
    for (int i = 0; i < halfLives.length; i++) {
      double now = accesses / halfLives[i];
      double decayed = state.logRates[i] == Double.NEGATIVE_INFINITY ? 0
          : Math.pow(2, state.logRates[i] - now);
      state.logRates[i] = Math.log(decayed + 1) / Math.log(2) + now;
    }
    state.lastAccess = accesses;
    if (state.inOrder) {
      state.rankedBy.set(state, rateIndex);
      ranked.add(state);
      state.staleOnNodes = true;
      if (state.density(rateIndex) < state.nodesBy.density) { // only if rounding undid the rise
        reorderOnNodes(state);
      }
    }
  }

  @Override
  public CacheDecision access(int nodeId, long block, DataSet dataSet) {
    Node node = node(nodeId);
    if (node.cached.containsKey(block)) {
      return CacheDecision.HIT;
    }
    State state = stateOf(dataSet);
    if (state.lastAccess < 0) {
      // Decisions are per access: a read whose job start the master did not see still is one.
      dataSetAccessed(dataSet);
    }
    if (node.capacity <= 0) {
      return CacheDecision.REJECTED;
    }
    if (state.decidedFor != state.lastAccess) {
      state.decidedFor = state.lastAccess;
      state.admitted = worthAdmitting(state);
    }
    if (!state.admitted) {
      return CacheDecision.REJECTED;
    }
    long[] evict = NONE;
    int needed = node.cached.size() + 1 - node.capacity;
    if (needed > 0) {
      // The admission weighed the cluster's cheapest data sets; the room comes from this node's.
      evict = evictOn(nodeId, needed, state, Spared.PROTECTED, rate(state) / (1 + margin));
      if (evict == null) {
        state.admitted = false; // not the rest of it either: a part earns no job hits
        return CacheDecision.REJECTED;
      }
    }
    addCopy(nodeId, block, state);
    return CacheDecision.admitAfterEvicting(evict);
  }

  /**
   * Whether the blocks the data set lacks are worth their room: free room holds them, or the
   * complete data sets that would leave to make it earn less (lowest rate per block first).
   */
  private boolean worthAdmitting(State candidate) {
    long missing = candidate.dataSet.blocks() - candidate.copies.size();
    long toFree = missing - (capacityBlocks - usedBlocks);
    if (toFree <= 0) {
      return true;
    }
    double displaced = 0;
    long freed = 0;
    for (State victim : ranked) {
      if (freed >= toFree) {
        break;
      }
      if (victim == candidate || isProtected(victim)) {
        continue;
      }
      freed += victim.copyCount;
      if (victim.complete()) {
        displaced += rate(victim);
      }
    }
    return freed >= toFree && rate(candidate) > (1 + margin) * displaced;
  }

  /** The data set's decayed access count now. */
  private double rate(State state) {
    return Math.pow(2, state.logRates[rateIndex] - accesses / halfLives[rateIndex]);
  }

  private boolean isProtected(State state) {
    return state.admitted && state.decidedFor == state.lastAccess
        && accesses - state.lastAccess < protectedAccesses;
  }

  /**
   * Evicts {@code count} copies on the node, from the data sets holding copies there in
   * eviction order, never {@code incoming}'s, no complete one earning {@code rateBelow} or more,
   * none that {@code spared} names; null (nothing evicted) when the others do not hold that many.
   */
  private long[] evictOn(int nodeId, int count, State incoming, Spared spared,
      double rateBelow) {
    Node node = nodes.get(nodeId);
    List<State> victims = new ArrayList<>();
    int available = 0;
    State visited = null;
    Iterator<State> walk = node.dataSets.iterator();
    while (available < count && walk.hasNext()) {
      State candidate = walk.next();
      if (candidate.staleOnNodes) {
        reorderOnNodes(candidate); // on to its place, later; the walk goes on after the last seen
        walk = (visited == null ? node.dataSets : node.dataSets.tailSet(visited, false))
            .iterator();
        continue;
      }
      visited = candidate;
      if (candidate != incoming && !spared.spares(this, candidate)
          && !(candidate.complete() && rate(candidate) >= rateBelow)) {
        victims.add(candidate);
        available += copiesByNode.count(candidate.id(), nodeId);
      }
    }
    if (available < count) {
      return null;
    }
    long[] evicted = new long[count];
    int taken = 0;
    for (State victim : victims) {
      double priority = priority(victim.id());
      int before = taken;
      while (taken < count && copiesByNode.count(victim.id(), nodeId) > 0) {
        long block = copiesByNode.newestBlock(victim.id(), nodeId);
        removeCopy(nodeId, block, victim);
        evicted[taken++] = block;
      }
      if (victim.copies.size() == 0) {
        dataSetsEvicted.add(new DataSetEviction(victim.id(), priority, 1, taken - before)); // this node only
      }
    }
    return evicted;
  }

  /**
   * In eviction order, sparing data sets still being filled while others hold enough: shrinking
   * the cache fills nothing, so a complete data set admitted just now has no claim over a more
   * popular one, but breaking one under way would leave its fills to push out complete ones.
   */
  @Override
  public long[] evictFrom(int nodeId, int blocks) {
    Node node = node(nodeId);
    int count = Math.min(blocks, node.cached.size());
    if (count <= 0) {
      return NONE;
    }
    long[] evicted = evictOn(nodeId, count, null, Spared.FILLING, Double.POSITIVE_INFINITY);
    return evicted != null ? evicted
        : evictOn(nodeId, count, null, Spared.NONE, Double.POSITIVE_INFINITY);
  }

  @Override
  public void restore(int nodeId, long block, DataSet dataSet) {
    if (!node(nodeId).cached.containsKey(block)) {
      addCopy(nodeId, block, stateOf(dataSet));
    }
  }

  @Override
  public boolean isCached(int node, long block) {
    return node < nodes.size() && nodes.get(node).cached.containsKey(block);
  }

  @Override
  public void removed(int nodeId, long block) {
    int dataSetId = node(nodeId).cached.get(block, NOT_CACHED);
    if (dataSetId != NOT_CACHED) {
      removeCopy(nodeId, block, dataSets.get(dataSetId));
    }
  }

  /** Never anything: evictions happen on the node that needs the room. */
  @Override
  public long[] drainPendingEvictions(int node) {
    return NONE;
  }

  @Override
  public long[] forgetNode(int nodeId) {
    for (State state : new ArrayList<>(node(nodeId).dataSets)) {
      while (copiesByNode.count(state.id(), nodeId) > 0) { // newest first: no list walks
        removeCopy(nodeId, copiesByNode.newestBlock(state.id(), nodeId), state);
      }
    }
    setCapacity(nodeId, 0);
    return NONE;
  }

  @Override
  public int usedBlocks(int node) {
    return node(node).cached.size();
  }

  @Override
  public void forEachCached(CachedCopyVisitor visitor) {
    CachedCopies.forEach(nodes.size(), nodeId -> nodes.get(nodeId).cached, visitor);
  }

  /** The data set's access rate per block now, or NaN when it has nothing cached. */
  @Override
  public double priority(int dataSetId) {
    State state = dataSets.get(dataSetId);
    return state == null || state.copies.size() == 0 ? Double.NaN
        : rate(state) / state.dataSet.blocks();
  }

  /**
   * Hears of each data set whose last copy leaves (a data set broken on one node stays until
   * its copies elsewhere are needed for room).
   */
  @Override
  public List<DataSetEviction> takeDataSetsEvicted() {
    List<DataSetEviction> taken = List.copyOf(dataSetsEvicted);
    dataSetsEvicted.clear();
    return taken;
  }

  private void addCopy(int nodeId, long block, State state) {
    Node node = nodes.get(nodeId);
    node.cached.put(block, state.id());
    usedBlocks++;
    boolean wasComplete = state.complete();
    if (copiesByNode.add(state.id(), nodeId, block) && state.inOrder) {
      node.dataSets.add(state); // with the values the other nodes hold it by
    }
    state.copyCount++;
    state.copies.add(block, 1);
    if (!state.inOrder || wasComplete != state.complete()) {
      unorder(state);
      order(state);
    }
  }

  private void removeCopy(int nodeId, long block, State state) {
    Node node = nodes.get(nodeId);
    node.cached.remove(block, NOT_CACHED);
    usedBlocks--;
    boolean wasComplete = state.complete();
    if (state.copies.add(block, -1) == 0) {
      state.copies.remove(block, 0);
    }
    state.copyCount--;
    if (copiesByNode.remove(state.id(), nodeId, block)) {
      node.dataSets.remove(state);
    }
    if (state.copies.size() == 0) {
      unorder(state);
    } else if (wasComplete != state.complete()) {
      unorder(state);
      order(state);
    }
  }

  /** Moves the data set to its current place in the sets of the nodes holding it. */
  private void reorderOnNodes(State state) {
    for (int i = 0; i < copiesByNode.nodeCount(state.id()); i++) {
      nodes.get(copiesByNode.node(state.id(), i)).dataSets.remove(state);
    }
    state.nodesBy.set(state, rateIndex);
    state.staleOnNodes = false;
    for (int i = 0; i < copiesByNode.nodeCount(state.id()); i++) {
      nodes.get(copiesByNode.node(state.id(), i)).dataSets.add(state);
    }
  }

  /** Takes the data set out of every ordered set (before a value they hold it by changes). */
  private void unorder(State state) {
    if (state.inOrder) {
      ranked.remove(state);
      for (int i = 0; i < copiesByNode.nodeCount(state.id()); i++) {
        nodes.get(copiesByNode.node(state.id(), i)).dataSets.remove(state);
      }
      state.inOrder = false;
    }
  }

  /** Puts the data set, if it holds copies, into the ordered sets with its current values. */
  private void order(State state) {
    if (state.copies.size() == 0) {
      return;
    }
    state.rankedBy.set(state, rateIndex);
    state.nodesBy.set(state, rateIndex);
    state.staleOnNodes = false;
    ranked.add(state);
    for (int i = 0; i < copiesByNode.nodeCount(state.id()); i++) {
      nodes.get(copiesByNode.node(state.id(), i)).dataSets.add(state);
    }
    state.inOrder = true;
  }

  /**
   * Forgets a data set even while it holds copies, which go too (they are no one's: a shadow's
   * decisions, forgotten where the cache forgets the data set, whose id may name another).
   */
  void drop(int dataSetId) {
    State state = dataSets.get(dataSetId);
    if (state == null) {
      return;
    }
    while (copiesByNode.nodeCount(dataSetId) > 0) {
      int nodeId = copiesByNode.node(dataSetId, 0);
      removeCopy(nodeId, copiesByNode.newestBlock(dataSetId, nodeId), state);
    }
    dataSets.clear(dataSetId);
  }

  /**
   * A node holding a copy of the data set's block, or -1 when none does: O(1) when no node does
   * or {@code likely} does, else a walk of the nodes holding copies of the data set.
   */
  int nodeHolding(long block, int dataSetId, int likely) {
    State state = dataSets.get(dataSetId);
    if (state == null || !state.copies.containsKey(block)) {
      return -1;
    }
    if (likely >= 0 && likely < nodes.size() && nodes.get(likely).cached.containsKey(block)) {
      return likely;
    }
    for (int i = 0; i < copiesByNode.nodeCount(dataSetId); i++) {
      int nodeId = copiesByNode.node(dataSetId, i);
      if (nodes.get(nodeId).cached.containsKey(block)) {
        return nodeId;
      }
    }
    return -1;
  }

  @Override
  public boolean forgetDataSet(int dataSetId) {
    State state = dataSets.get(dataSetId);
    if (state != null && state.copies.size() > 0) {
      return false;
    }
    dataSets.clear(dataSetId);
    return true;
  }

  @Override
  public int trackedDataSets() {
    return dataSets.count();
  }

  /** The data set's state, following a change of its size (files added or removed). */
  private State stateOf(DataSet dataSet) {
    State state = dataSets.getOrCreate(dataSet.id(), () -> new State(dataSet, halfLives.length));
    if (state.dataSet.blocks() != dataSet.blocks()) {
      unorder(state);
      state.dataSet = dataSet;
      order(state);
    }
    return state;
  }

  private Node node(int node) {
    return NodeTables.grown(nodes, node, Node::new);
  }
}
