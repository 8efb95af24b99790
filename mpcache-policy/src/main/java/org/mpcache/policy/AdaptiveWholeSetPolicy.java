package org.mpcache.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link WholeSetPolicy} with a memory that follows the workload (docs/policies.md,
 * "wholeset-adaptive"): how fast a data set's access count should fade depends on the workload (a
 * production cluster's hot data sets change within hours, a benchmark mix's never), so the cache
 * ranks by the half-life that would have served the recent past best. Shadow policies, one for
 * each candidate half-life, see every read and decide as if they were the cache, their copies
 * bookkeeping only (the idea of "Cache Modeling and Optimization using Miniature Simulations",
 * Waldspurger et al., USENIX ATC 2017, here at full size); a shadow reads a block where it holds
 * it, as cache-aware scheduling would have placed the task. The cache ranks by the half-life whose
 * shadow scored most over an exponential window of data-set accesses, a score of block hits plus
 * whole-job hits (each as a share of the window's), and switches only when another leads by
 * {@code switchMargin}.
 *
 * <p>A job hit is scored per data-set access: two accesses of one data set under way at once
 * (the master's concurrent passes) count as one.
 *
 * <p>Cost: each read is decided by every shadow too, and each shadow holds the tables the cache
 * holds: memory and time grow by the number of half-lives.
 */
public final class AdaptiveWholeSetPolicy implements ReplacementPolicy {
  /**
   * The memories that served best the production trace's tuning half and the benchmark mix:
   * docs/policies.md.
   */
  private static final double[] DEFAULT_HALF_LIVES = {100, WholeSetPolicy.DEFAULT_HALF_LIFE};
  /** Data-set accesses after which a hit counts half in the score. */
  public static final double DEFAULT_WINDOW = 1_000;
  /** How far ahead (in score, block share plus job share) another shadow must be to switch. */
  public static final double DEFAULT_SWITCH_MARGIN = 0.01;

  private final double[] halfLives;
  private final double window;
  private final double switchMargin;
  private final double decay;
  private final WholeSetPolicy cache;
  private final WholeSetPolicy[] shadows;
  /** Each shadow's block and job hits in the window, decayed. */
  private final double[] blockHits;
  private final double[] jobHits;
  /** Each shadow's data sets whose current access missed there. */
  private final List<Set<Integer>> missedThisAccess = new ArrayList<>();
  /** Reads and jobs in the window, decayed. */
  private double reads;
  private double jobs;
  private long accesses;
  /** The data-set access each data set's current access started at. */
  private final Map<Integer, Long> accessStart = new HashMap<>();
  private int leader;
  private long switches;

  public AdaptiveWholeSetPolicy() {
    this(DEFAULT_HALF_LIVES, DEFAULT_WINDOW, DEFAULT_SWITCH_MARGIN);
  }

  /**
   * Starts ranking by the shortest of {@code halfLives}: until the cache is full every shadow
   * decides alike, and a short memory's better eviction shows only at the next read of what it
   * kept, which a cache still on the long memory would miss (docs/policies.md).
   */
  public AdaptiveWholeSetPolicy(double[] halfLives, double window, double switchMargin) {
    if (halfLives.length < 2 || !(window > 0) || !(switchMargin >= 0)) {
      throw new IllegalArgumentException("an adaptive memory needs two half-lives or more ("
          + Arrays.toString(halfLives) + "), a window > 0 (" + window + ") and a switch margin "
          + ">= 0 (" + switchMargin + ")");
    }
    this.halfLives = halfLives.clone();
    this.window = window;
    this.switchMargin = switchMargin;
    this.decay = Math.pow(2, -1 / window);
    cache = new WholeSetPolicy(halfLives, WholeSetPolicy.DEFAULT_MARGIN,
        WholeSetPolicy.DEFAULT_PROTECTED_ACCESSES);
    shadows = new WholeSetPolicy[halfLives.length];
    for (int i = 0; i < shadows.length; i++) {
      shadows[i] = new WholeSetPolicy(halfLives[i], WholeSetPolicy.DEFAULT_MARGIN,
          WholeSetPolicy.DEFAULT_PROTECTED_ACCESSES);
      missedThisAccess.add(new HashSet<>());
    }
    blockHits = new double[shadows.length];
    jobHits = new double[shadows.length];
    for (int i = 1; i < halfLives.length; i++) {
      if (halfLives[i] < halfLives[leader]) {
        leader = i;
      }
    }
    cache.rankBy(leader);
  }

  /**
   * The policy a name's parameters give, as {@link #name} writes them (half-lives joined by
   * slashes, window, switch margin: {@code 100/100000:1000:0.01}), trailing ones left out for
   * their defaults.
   */
  public static AdaptiveWholeSetPolicy fromParameters(List<String> parameters) {
    if (parameters.size() > 3) {
      throw new IllegalArgumentException("wholeset-adaptive takes"
          + " :<half-life>/<half-life>...:<window>:<switch margin>, not :"
          + String.join(":", parameters));
    }
    return new AdaptiveWholeSetPolicy(parameters.isEmpty() ? DEFAULT_HALF_LIVES
        : Arrays.stream(parameters.get(0).split("/")).mapToDouble(Double::parseDouble).toArray(),
        parameters.size() > 1 ? Double.parseDouble(parameters.get(1)) : DEFAULT_WINDOW,
        parameters.size() > 2 ? Double.parseDouble(parameters.get(2)) : DEFAULT_SWITCH_MARGIN);
  }

  @Override
  public String name() {
    boolean defaults = Arrays.equals(halfLives, DEFAULT_HALF_LIVES) && window == DEFAULT_WINDOW
        && switchMargin == DEFAULT_SWITCH_MARGIN;
    return defaults ? "wholeset-adaptive" : String.format(Locale.ROOT,
        "wholeset-adaptive:%s:%s:%s", WholeSetPolicy.halfLivesName(halfLives), window,
        switchMargin);
  }

  /** The half-life the cache ranks by now. */
  public double rankingHalfLife() {
    return cache.rankingHalfLife();
  }

  /** How often the cache changed the half-life it ranks by. */
  public long switches() {
    return switches;
  }

  @Override
  public void setCapacity(int node, int capacityBlocks) {
    cache.setCapacity(node, capacityBlocks);
    for (WholeSetPolicy shadow : shadows) {
      shadow.setCapacity(node, capacityBlocks);
    }
  }

  /** The shadows shrink to the room the cache keeps. */
  @Override
  public long[] evictFrom(int node, int blocks) {
    int kept = Math.max(0, cache.usedBlocks(node) - blocks);
    for (WholeSetPolicy shadow : shadows) {
      int over = shadow.usedBlocks(node) - kept;
      if (over > 0) {
        shadow.evictFrom(node, over);
        shadow.takeDataSetsEvicted();
      }
    }
    return cache.evictFrom(node, blocks);
  }

  @Override
  public void dataSetAccessed(DataSet dataSet) {
    accesses++;
    reads *= decay;
    jobs = jobs * decay + 1;
    for (int i = 0; i < shadows.length; i++) {
      blockHits[i] *= decay;
      jobHits[i] = jobHits[i] * decay + 1; // until it misses
      missedThisAccess.get(i).remove(dataSet.id());
      shadows[i].dataSetAccessed(dataSet);
    }
    accessStart.put(dataSet.id(), accesses);
    cache.dataSetAccessed(dataSet);
    follow();
  }

  /** Ranks by the best shadow's half-life once it leads the current one by the margin. */
  private void follow() {
    int best = leader;
    for (int i = 0; i < shadows.length; i++) {
      if (score(i) > score(best)) {
        best = i;
      }
    }
    if (best != leader && score(best) > score(leader) + switchMargin) {
      leader = best;
      cache.rankBy(best);
      switches++;
    }
  }

  private double score(int shadow) {
    return (reads > 0 ? blockHits[shadow] / reads : 0) + jobHits[shadow] / jobs;
  }

  @Override
  public CacheDecision access(int node, long block, DataSet dataSet) {
    reads++;
    Long start = accessStart.get(dataSet.id());
    for (int i = 0; i < shadows.length; i++) {
      int holding = shadows[i].nodeHolding(block, dataSet.id(), node);
      CacheDecision decision = shadows[i].access(holding >= 0 ? holding : node, block, dataSet);
      shadows[i].takeDataSetsEvicted();
      if (decision.hit()) {
        blockHits[i]++;
      } else if (start != null && missedThisAccess.get(i).add(dataSet.id())) {
        jobHits[i] -= Math.pow(decay, accesses - start); // its job's hit, decayed since
      }
    }
    return cache.access(node, block, dataSet);
  }

  /** The shadows start from what the node holds too. */
  @Override
  public void restore(int node, long block, DataSet dataSet) {
    for (WholeSetPolicy shadow : shadows) {
      shadow.restore(node, block, dataSet);
    }
    cache.restore(node, block, dataSet);
  }

  @Override
  public boolean isCached(int node, long block) {
    return cache.isCached(node, block);
  }

  @Override
  public void removed(int node, long block) {
    for (WholeSetPolicy shadow : shadows) {
      shadow.removed(node, block);
    }
    cache.removed(node, block);
  }

  @Override
  public long[] drainPendingEvictions(int node) {
    return cache.drainPendingEvictions(node);
  }

  @Override
  public int pendingEvictions(int node) {
    return cache.pendingEvictions(node);
  }

  @Override
  public long[] forgetNode(int node) {
    for (WholeSetPolicy shadow : shadows) {
      shadow.forgetNode(node);
    }
    return cache.forgetNode(node);
  }

  @Override
  public int usedBlocks(int node) {
    return cache.usedBlocks(node);
  }

  /** Forgotten by the shadows too, with their copies of it: its id may name another. */
  @Override
  public boolean forgetDataSet(int dataSetId) {
    if (!cache.forgetDataSet(dataSetId)) {
      return false;
    }
    for (int i = 0; i < shadows.length; i++) {
      shadows[i].drop(dataSetId);
      missedThisAccess.get(i).remove(dataSetId);
    }
    accessStart.remove(dataSetId);
    return true;
  }

  @Override
  public int trackedDataSets() {
    return cache.trackedDataSets();
  }

  @Override
  public void forEachCached(CachedCopyVisitor visitor) {
    cache.forEachCached(visitor);
  }

  @Override
  public double priority(int dataSetId) {
    return cache.priority(dataSetId);
  }

  @Override
  public List<DataSetEviction> takeDataSetsEvicted() {
    return cache.takeDataSetsEvicted();
  }
}
