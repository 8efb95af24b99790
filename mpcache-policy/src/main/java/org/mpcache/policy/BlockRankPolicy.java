package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The classic block-level baselines, each node on its own: a miss is cached, and the node evicts
 * its lowest-ranked blocks. LRU ranks by last access, MRU by the reverse (BigCache's choice for
 * sequential scans), LFU by accesses since the block was cached, then by recency. With an
 * admission filter, a miss that needs room is cached only if the filter accepts the data sets
 * of the blocks it would evict; by default there is none.
 */
public final class BlockRankPolicy implements ReplacementPolicy {
  /** How a node ranks its blocks; the lowest rank is evicted first. */
  public enum Kind {
    LRU, MRU, LFU
  }

  private static final long[] NONE = new long[0];
  private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::primary)
      .thenComparingLong(Entry::secondary).thenComparingLong(Entry::block);

  private final Kind kind;
  private final AdmissionFilter admission;
  /** Each data set's size as last read, for the admission filter's victims. */
  private final Map<Integer, Integer> dataSetBlocks = new HashMap<>();
  /** Copies per data set on all nodes: a data set is forgotten only without any. */
  private final Map<Integer, Integer> copiesPerDataSet = new HashMap<>();
  private final List<NodeCache> nodes = new ArrayList<>();
  private long clock;

  private record Entry(long block, int dataSetId, long primary, long secondary, long accesses) {
  }

  private static final class NodeCache {
    int capacity;
    final Map<Long, Entry> entries = new HashMap<>();
    final TreeSet<Entry> order = new TreeSet<>(ORDER);
  }

  public BlockRankPolicy(Kind kind) {
    this(kind, AdmissionFilter.NONE);
  }

  public BlockRankPolicy(Kind kind, AdmissionFilter admission) {
    this.kind = kind;
    this.admission = admission;
  }

  @Override
  public String name() {
    return ReplacementPolicies.name(kind.name().toLowerCase(Locale.ROOT),
        AdmissionFilter.NONE.name(), admission);
  }

  @Override
  public void setCapacity(int node, int capacityBlocks) {
    node(node).capacity = capacityBlocks;
  }

  @Override
  public void dataSetAccessed(DataSet dataSet) {
    admission.accessed(dataSet); // the ranking itself does not look at data sets
  }

  @Override
  public CacheDecision access(int node, long block, DataSet dataSet) {
    NodeCache cache = node(node);
    clock++;
    Entry entry = cache.entries.get(block);
    if (entry != null) {
      cache.order.remove(entry);
      // The copy stays its data set's as counted when cached (a moved file's block may now
      // resolve to another), so that a data set is never forgotten while a copy names it.
      put(cache, rank(block, entry.dataSetId(), entry.accesses() + 1));
      return CacheDecision.HIT;
    }
    if (cache.capacity <= 0) {
      return CacheDecision.REJECTED;
    }
    int needed = cache.entries.size() + 1 - cache.capacity;
    if (admission != AdmissionFilter.NONE) {
      dataSetBlocks.put(dataSet.id(), dataSet.blocks());
      if (needed > 0 && !(admission.mayAdmit(dataSet)
          && admission.admits(dataSet, victimDataSets(cache, needed, dataSet)))) {
        return CacheDecision.REJECTED;
      }
    }
    long[] evict = evictLowest(cache, needed);
    put(cache, rank(block, dataSet.id(), 1));
    return CacheDecision.admitAfterEvicting(evict);
  }

  @Override
  public long[] evictFrom(int node, int blocks) {
    NodeCache cache = node(node);
    return evictLowest(cache, Math.min(blocks, cache.entries.size()));
  }

  /**
   * The data sets of the {@code count} lowest-ranked blocks, each once, lowest first, but the
   * candidate's own (evicting its own blocks costs it nothing it would gain).
   */
  private List<DataSet> victimDataSets(NodeCache cache, int count, DataSet candidate) {
    Set<Integer> ids = new LinkedHashSet<>();
    var lowest = cache.order.iterator();
    for (int i = 0; i < count && lowest.hasNext(); i++) {
      int id = lowest.next().dataSetId();
      if (id != candidate.id()) {
        ids.add(id);
      }
    }
    List<DataSet> victims = new ArrayList<>();
    for (int id : ids) {
      victims.add(new DataSet(id, dataSetBlocks.get(id)));
    }
    return victims;
  }

  private long[] evictLowest(NodeCache cache, int count) {
    if (count <= 0) {
      return NONE;
    }
    long[] evict = new long[count];
    for (int i = 0; i < count; i++) {
      Entry victim = cache.order.pollFirst();
      cache.entries.remove(victim.block());
      dropped(victim);
      evict[i] = victim.block();
    }
    return evict;
  }

  @Override
  public void restore(int node, long block, DataSet dataSet) {
    NodeCache cache = node(node);
    if (!cache.entries.containsKey(block)) {
      if (admission != AdmissionFilter.NONE) {
        dataSetBlocks.put(dataSet.id(), dataSet.blocks());
      }
      clock++;
      put(cache, rank(block, dataSet.id(), 0));
    }
  }

  private Entry rank(long block, int dataSetId, long accesses) {
    return switch (kind) {
      case LRU -> new Entry(block, dataSetId, clock, 0, accesses);
      case MRU -> new Entry(block, dataSetId, -clock, 0, accesses);
      case LFU -> new Entry(block, dataSetId, accesses, clock, accesses);
    };
  }

  private void put(NodeCache cache, Entry entry) {
    if (cache.entries.put(entry.block(), entry) == null) {
      copiesPerDataSet.merge(entry.dataSetId(), 1, Integer::sum);
    }
    cache.order.add(entry);
  }

  private void dropped(Entry entry) {
    copiesPerDataSet.computeIfPresent(entry.dataSetId(), (id, copies) -> copies == 1 ? null
        : copies - 1);
  }

  @Override
  public boolean isCached(int node, long block) {
    return node < nodes.size() && nodes.get(node).entries.containsKey(block);
  }

  @Override
  public void removed(int node, long block) {
    NodeCache cache = node(node);
    Entry entry = cache.entries.remove(block);
    if (entry != null) {
      cache.order.remove(entry);
      dropped(entry);
    }
  }

  @Override
  public long[] drainPendingEvictions(int node) {
    return NONE;
  }

  @Override
  public long[] forgetNode(int node) {
    NodeCache cache = node(node);
    cache.entries.values().forEach(this::dropped);
    cache.entries.clear();
    cache.order.clear();
    cache.capacity = 0;
    return NONE;
  }

  @Override
  public boolean forgetDataSet(int dataSetId) {
    if (copiesPerDataSet.containsKey(dataSetId)) {
      return false;
    }
    dataSetBlocks.remove(dataSetId);
    admission.forget(dataSetId);
    return true;
  }

  @Override
  public int trackedDataSets() {
    return copiesPerDataSet.size() + dataSetBlocks.size() + admission.trackedDataSets();
  }

  @Override
  public int usedBlocks(int node) {
    return node(node).entries.size();
  }

  @Override
  public void forEachCached(CachedCopyVisitor visitor) {
    for (int node = 0; node < nodes.size(); node++) {
      for (Entry entry : nodes.get(node).entries.values()) {
        visitor.visit(node, entry.block(), entry.dataSetId());
      }
    }
  }

  private NodeCache node(int node) {
    return NodeTables.grown(nodes, node, NodeCache::new);
  }
}
