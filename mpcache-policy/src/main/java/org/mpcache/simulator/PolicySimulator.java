package org.mpcache.simulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.DataSetRecency;
import org.mpcache.policy.ReplacementPolicy;

/**
 * Replays the PUMA job mix through the same policy classes the master runs and prints, per
 * policy, the block hit ratio and the job hit ratio (jobs whose whole input was cached).
 *
 * <p>Model: each map task reads one block on a node holding one of its three replicas; a node
 * that caches the block is preferred (cache-aware scheduling), otherwise a replica node is drawn
 * at random. A miss is cached on the node that read it if the policy admits it.
 */
public final class PolicySimulator {
  /**
   * One policy's result. Evictions count copies: those a node deletes to make room (for an
   * admitted block, or where its room shrank after a job: {@link RoomAfterJob}), and those of
   * evicted data sets on other nodes (To_Del, handed over after each job as heartbeats would);
   * and data sets evicted whole. Data sets forgotten: those the
   * policy forgot because more were tracked than the cap.
   */
  public record Result(String policy, long blockAccesses, long blockHits, long jobs,
      long jobHits, long evictedForRoom, long evictedElsewhere, long dataSetsEvicted,
      double seconds, long blocksWritten, long[] quarterJobHits, long dataSetsForgotten) {
    public double blockHitRatio() {
      return (double) blockHits / blockAccesses;
    }

    public double jobHitRatio() {
      return (double) jobHits / jobs;
    }

    /** Job hit ratio over the {@code quarter}-th quarter (0..3) of the jobs. */
    public double quarterJobHitRatio(int quarter) {
      return (double) quarterJobHits[quarter] / (jobsBefore(quarter + 1) - jobsBefore(quarter));
    }

    private long jobsBefore(int quarter) {
      return (jobs * quarter + QUARTERS - 1) / QUARTERS; // job i is in quarter i·4/jobs
    }

    /** Nanoseconds per policy call: block reads and data-set accesses. */
    public double nsPerEvent() {
      return seconds * 1e9 / (blockAccesses + jobs);
    }
  }

  /** Job hit ratios are also given per quarter of the trace: how fast a policy warms up. */
  public static final int QUARTERS = 4;

  /**
   * The knobs, with the paper's setting as defaults (7 nodes, 80 GB of SSD cache each);
   * {@code shiftEvery}: jobs after which the sources' popularity is redrawn (0: never).
   */
  public record Settings(int nodes, int tenants, int jobs, double zipfS, long cacheMbPerNode,
      int blockMb, long seed, int shiftEvery) {
    public Settings(int nodes, int tenants, int jobs, double zipfS, long cacheMbPerNode,
        int blockMb, long seed) {
      this(nodes, tenants, jobs, zipfS, cacheMbPerNode, blockMb, seed, 0);
    }

    public int cacheBlocksPerNode() {
      return (int) (cacheMbPerNode / blockMb);
    }

    public Settings withSeed(long newSeed) {
      return new Settings(nodes, tenants, jobs, zipfS, cacheMbPerNode, blockMb, newSeed,
          shiftEvery);
    }

    public Settings withCacheMbPerNode(long newCacheMbPerNode) {
      return new Settings(nodes, tenants, jobs, zipfS, newCacheMbPerNode, blockMb, seed,
          shiftEvery);
    }
  }

  private PolicySimulator() {
  }

  /** Sees each simulated read: the job's index, the block, the node that read it, the outcome. */
  @FunctionalInterface
  public interface ReadObserver {
    void read(int job, long block, int node, CacheDecision decision);

    /** After job {@code job} the node's room shrank: it deletes {@code evicted} now. */
    default void roomShrank(int job, int node, long[] evicted) {
    }
  }

  /**
   * The room each node leaves input data at the end of a job, in blocks, where the cache gave
   * part of its capacity to something else while the job ran: as the master does when a slave's
   * Dynamic Pool lends room to localized data, the node then frees what it holds over that room
   * through the policy's own scheme ({@link ReplacementPolicy#evictFrom}). The room comes back by
   * the next job.
   */
  @FunctionalInterface
  public interface RoomAfterJob {
    /** Nothing is taken: each node keeps its capacity. */
    RoomAfterJob UNCHANGED = (job, node) -> Integer.MAX_VALUE;

    /** The node's room after trace job {@code job}; its capacity or more when none was taken. */
    int blocks(int job, int node);
  }

  public static Result run(Trace trace, ReplacementPolicy policy, ReadOrder order) {
    return run(trace, policy, order, (job, block, node, decision) -> { });
  }

  public static Result run(Trace trace, ReplacementPolicy policy, ReadObserver observer) {
    return run(trace, policy, ReadOrder.FILE, observer);
  }

  /**
   * Runs the trace through the policy, each job's blocks in the given order. Each read goes to a
   * replica node that holds a copy (the first as the trace lists the replicas), else to the node
   * the trace names for it.
   */
  public static Result run(Trace trace, ReplacementPolicy policy, ReadOrder order,
      ReadObserver observer) {
    return run(trace, policy, order, Integer.MAX_VALUE, RoomAfterJob.UNCHANGED, observer);
  }

  /**
   * As above, tracking {@code maxTracked} data sets at most as the master does
   * ({@code dfs.mpcache.master.dataset.max-tracked}): a data set is tracked from its job on,
   * and beyond the cap the least recently read are forgotten through
   * {@link ReplacementPolicy#forgetDataSet} (not those holding copies; the simulator sets no pins
   * or TTLs), so that one read again starts anew; after each job, a node whose room shrank
   * ({@code roomAfter}) frees what it holds over it.
   */
  public static Result run(Trace trace, ReplacementPolicy policy, ReadOrder order,
      int maxTracked, RoomAfterJob roomAfter, ReadObserver observer) {
    Settings settings = trace.settings();
    for (int node = 0; node < settings.nodes(); node++) {
      policy.setCapacity(node, settings.cacheBlocksPerNode());
    }
    long accesses = 0;
    long hits = 0;
    long jobHits = 0;
    long written = 0;
    long[] quarterJobHits = new long[QUARTERS];
    long evictedForRoom = 0;
    long evictedElsewhere = 0;
    long dataSetsEvicted = 0;
    DataSetRecency tracked = new DataSetRecency();
    long forgotten = 0;
    int jobIndex = 0;
    long start = System.nanoTime();
    for (TraceJob job : trace) {
      DataSet dataSet = job.dataSet();
      tracked.seen(dataSet.id(), jobIndex);
      if (tracked.size() > maxTracked) {
        forgotten += tracked.forgetOverCap(maxTracked, dataSet.id(), jobIndex,
            policy::forgetDataSet);
      }
      policy.dataSetAccessed(dataSet);
      boolean allHit = true;
      int[] shuffle = order.shuffle(job.reads(), settings.seed(), jobIndex);
      for (int k = 0; k < job.reads(); k++) {
        int i = job.readIndex(ReadOrder.blockRead(shuffle, k));
        long block = job.block(i);
        int node = readerOf(job, i, policy::isCached);
        CacheDecision decision = policy.access(node, block, dataSet);
        observer.read(jobIndex, block, node, decision);
        evictedForRoom += decision.evict().length;
        dataSetsEvicted += policy.takeDataSetsEvicted().size();
        written += decision.admitted() ? 1 : 0;
        accesses++;
        if (decision.hit()) {
          hits++;
        } else {
          allHit = false;
        }
      }
      if (allHit) {
        jobHits++;
        quarterJobHits[(int) ((long) jobIndex * QUARTERS / settings.jobs())]++;
      }
      for (int node = 0; node < settings.nodes(); node++) {
        evictedElsewhere += policy.drainPendingEvictions(node).length;
      }
      for (int node = 0; node < settings.nodes(); node++) {
        // Copies this condemns on other nodes wait there, as To_Del, for the next job's end.
        int over = policy.usedBlocks(node) - roomAfter.blocks(jobIndex, node);
        if (over > 0) {
          long[] evicted = policy.evictFrom(node, over);
          observer.roomShrank(jobIndex, node, evicted);
          evictedForRoom += evicted.length;
          dataSetsEvicted += policy.takeDataSetsEvicted().size();
        }
      }
      jobIndex++;
    }
    return new Result(policy.name(), accesses, hits, jobIndex, jobHits, evictedForRoom,
        evictedElsewhere, dataSetsEvicted, (System.nanoTime() - start) / 1e9, written,
        quarterJobHits, forgotten);
  }

  /** Whether a node holds a copy of a block, as the cache-aware locations say. */
  @FunctionalInterface
  public interface CopyHolders {
    boolean holds(int node, long block);
  }

  /**
   * Where a read of the job's {@code index}-th block goes: the first replica node holding a copy
   * (cache-aware scheduling), else the node the trace names.
   */
  public static int readerOf(TraceJob job, int index, CopyHolders holders) {
    for (int r = 0; r < PumaWorkload.REPLICATION; r++) {
      int replica = job.replica(index, r);
      if (holders.holds(replica, job.block(index))) {
        return replica;
      }
    }
    return job.namedNode(index);
  }

  static PumaWorkload workload(Settings settings) {
    return new PumaWorkload(settings.nodes(), settings.tenants(), settings.zipfS(),
        settings.blockMb(), settings.seed(), settings.shiftEvery());
  }

  /** Every policy the simulator evaluates by default, with its default constants. */
  public static List<Supplier<ReplacementPolicy>> policies() {
    return SimulatorPolicies.NAMES.stream().<Supplier<ReplacementPolicy>>map(
        name -> () -> SimulatorPolicies.create(name)).toList();
  }

  static final ToolOptions OPTIONS = TraceOptions.declare(
      new ToolOptions("dev-support/policy-simulator.sh [options]"), 128)
      .valued("jobs", "N", "10000", "jobs in the trace")
      .valued("seeds", "SEEDS", null, "run a trace per seed (11-30, 1,2,5 or both) and report "
          + "means with 95 % intervals and paired differences against the first policy")
      .valued("shift", "N", "0", "every N jobs other sources become the popular ones; 0 never")
      .valued("policies", "LIST", String.join(",", SimulatorPolicies.NAMES), "policies to "
          + "run, comma-separated: a registry name, policy+filter, wholeset:<args> or "
          + "wholeset-adaptive:<args> (docs/policies.md)")
      .valued("csv", "FILE", null, "run over seeds as --seeds does (--seed alone without it) "
          + "and append a row per policy and seed here, resuming a run of the same settings "
          + "(default simulator-runs.csv)")
      .valued("write-trace", "FILE", null, "write the drawn trace here and simulate nothing")
      .valued("read-order", "ORDER", ReadOrder.FILE.option(), "the order of a job's block "
          + "reads: file or shuffled")
      .valued("max-tracked", "N", null, "forget data sets beyond N tracked, as the master's "
          + "dfs.mpcache.master.dataset.max-tracked (one trace only)")
      .flag("per-sample", "with --swim, simulate each hourly sample of --samples alone, with an"
          + " empty cache, and report means with 95 % intervals over the samples")
      .valued("cache-shares", "LIST", "1/16,1/8,1/4,1/2,1", "with --per-sample, the caches to"
          + " simulate, as shares of each sample's re-read working set (instead of --cache-gb)");

  public static void main(String[] args) throws IOException {
    try {
      simulate(args);
    } catch (IllegalArgumentException e) {
      System.err.println("policy-simulator: " + e.getMessage());
      System.exit(2);
    }
  }

  private static void simulate(String[] args) throws IOException {
    ToolOptions.Values options = OPTIONS.parse(args);
    List<String> names = new ArrayList<>();
    for (String name : options.value("policies").split(",")) {
      // As the policy names itself: another spelling must not run it again on resume.
      String canonical = SimulatorPolicies.create(name).name();
      if (!names.contains(canonical)) {
        names.add(canonical);
      }
    }
    Settings settings = TraceOptions.settings(options, Integer.parseInt(options.value("jobs")),
        Integer.parseInt(options.value("shift")));
    ReadOrder order = ReadOrder.of(options.value("read-order"));
    int maxTracked = options.has("max-tracked") ? maxTracked(options.value("max-tracked"))
        : Integer.MAX_VALUE;
    if (options.has("seeds") || options.has("csv")) {
      if (maxTracked != Integer.MAX_VALUE) {
        throw new IllegalArgumentException("--max-tracked runs one trace; --seeds and --csv run"
            + " without a cap on tracked data sets");
      }
      if (TraceOptions.replays(options)) {
        throw new IllegalArgumentException("--trace, --swim and --audit-log replay one trace;"
            + " --seeds and --csv draw a trace per seed");
      }
      Path file = Path.of(options.has("csv") ? options.value("csv") : "simulator-runs.csv");
      List<SimulatorRuns.Row> rows = SimulatorRuns.run(settings, order,
          options.has("seeds") ? seeds(options.value("seeds")) : List.of(settings.seed()),
          names, file, System.out);
      System.out.println();
      SimulatorRuns.report(file, order, rows, names, System.out);
      System.out.println(file.toAbsolutePath());
      return;
    }
    if (options.has("per-sample") || options.has("cache-shares")) {
      if (!options.has("swim") || !options.has("per-sample") || maxTracked != Integer.MAX_VALUE
          || options.has("write-trace")) {
        throw new IllegalArgumentException("--per-sample runs each sample of a SWIM workload"
            + " (--swim) at the caches --cache-shares gives, without --max-tracked or"
            + " --write-trace");
      }
      int[] samples = TraceOptions.samples(options);
      SampleRuns.run(SwimTrace.read(Path.of(options.value("swim"))),
          TraceOptions.reading(options), PartialRead.of(options.value("part")), samples[0],
          samples[1], settings, shares(options.value("cache-shares")), names, order,
          System.out);
      return;
    }
    Trace trace = TraceOptions.trace(options, settings, System.out);
    if (options.has("write-trace")) {
      String writeTo = options.value("write-trace");
      if (order != ReadOrder.FILE) {
        throw new IllegalArgumentException("--read-order orders a simulation's reads; a trace"
            + " written with --write-trace holds none (give --read-order when replaying it)");
      }
      trace.write(Path.of(writeTo));
      System.out.println("trace of " + trace.jobs() + " jobs written to " + writeTo);
      return;
    }
    List<Result> results = new ArrayList<>();
    for (String name : names) {
      results.add(run(trace, SimulatorPolicies.create(name), order, maxTracked,
          RoomAfterJob.UNCHANGED, (job, block, node, decision) -> { }));
    }
    print(trace, order, results, OfflineBound.run(trace, order),
        JobBound.jobHits(trace, 0), System.out);
    if (maxTracked != Integer.MAX_VALUE) {
      printForgotten(maxTracked, results, System.out);
    }
  }

  /** {@code --max-tracked}: a positive number of data sets; none (no cap) when empty. */
  static int maxTracked(String value) {
    if (value.isEmpty()) {
      return Integer.MAX_VALUE;
    }
    int cap;
    try {
      cap = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      cap = 0;
    }
    if (cap > 0) {
      return cap;
    }
    throw new IllegalArgumentException("--max-tracked " + value + ": expected a positive number"
        + " of data sets (the master's dfs.mpcache.master.dataset.max-tracked)");
  }

  /** With a cap on tracked data sets: how many each policy forgot over it. */
  static void printForgotten(int maxTracked, List<Result> results, PrintStream out) {
    out.printf(Locale.ROOT, "%nData sets forgotten over the cap of %d tracked (as the master's"
        + " dfs.mpcache.master.dataset.max-tracked):", maxTracked);
    for (Result r : results) {
      out.printf(Locale.ROOT, " %s %d;", r.policy(), r.dataSetsForgotten());
    }
    out.println();
  }

  /** Cache shares as fractions or numbers: {@code 1/16,0.25,1}; each above 0. */
  static List<Double> shares(String spec) {
    List<Double> shares = new ArrayList<>();
    for (String part : spec.split(",")) {
      String[] fraction = part.trim().split("/", -1);
      double share;
      try {
        share = fraction.length == 2
            ? Double.parseDouble(fraction[0]) / Double.parseDouble(fraction[1])
            : fraction.length == 1 ? Double.parseDouble(fraction[0]) : Double.NaN;
      } catch (NumberFormatException e) {
        share = Double.NaN;
      }
      if (!(share > 0) || Double.isInfinite(share)) {
        throw new IllegalArgumentException("--cache-shares " + spec + ": expected shares above"
            + " 0 such as 1/16,0.25,1");
      }
      shares.add(share);
    }
    return shares;
  }

  /** Seeds as {@code 11-30}, {@code 1,2,5} or both ({@code 1-5,11}). */
  static List<Long> seeds(String spec) {
    try {
      return NumberRanges.expand(spec);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seeds " + spec + ": expected seeds or ranges such as"
          + " 11-30,5", e);
    }
  }

  /**
   * The table of results, then the bounds: Belady's MIN on block hits ({@link OfflineBound})
   * and {@link JobBound} on job hits, each with the gap to the best policy.
   */
  static void print(Trace trace, ReadOrder order, List<Result> results, Result blockBound,
      long jobBound, PrintStream out) {
    Settings settings = trace.settings();
    long cacheBlocks = (long) settings.cacheBlocksPerNode() * settings.nodes();
    long dataBlocks = trace.dataBlocks();
    out.printf(Locale.ROOT, "%d nodes, %s%d jobs, %d MB blocks, %d GB cache per node; data %d"
            + " blocks (one replica), cache %d blocks (%.1f %% of the data); a job's blocks read"
            + " in %s order%n%n", settings.nodes(), trace.drawn() ? String.format(Locale.ROOT,
            "%d tenants, s = %s, ", settings.tenants(), settings.zipfS()) : "",
        settings.jobs(), settings.blockMb(), settings.cacheMbPerNode() / 1024, dataBlocks,
        cacheBlocks, 100.0 * cacheBlocks / dataBlocks, order.option());
    out.println("| policy | block hit ratio | job hit ratio | block accesses | copies evicted"
        + " per job: for room / elsewhere | data sets evicted per job | seconds |");
    out.println("|---|---|---|---|---|---|---|");
    for (Result r : results) {
      out.printf(Locale.ROOT, "| %s | %.1f %% | %.1f %% | %d | %.2f / %.2f | %.2f | %.1f |%n",
          r.policy(), 100 * r.blockHitRatio(), 100 * r.jobHitRatio(), r.blockAccesses(),
          (double) r.evictedForRoom() / r.jobs(), (double) r.evictedElsewhere() / r.jobs(),
          (double) r.dataSetsEvicted() / r.jobs(), r.seconds());
    }
    double jobBoundRatio = (double) jobBound / blockBound.jobs();
    out.printf(Locale.ROOT, "| upper bounds (blocks: Belady's MIN; jobs: JobBound) | %.1f %% |"
        + " %.1f %% | %d | | | %.1f |%n", 100 * blockBound.blockHitRatio(), 100 * jobBoundRatio,
        blockBound.blockAccesses(), blockBound.seconds());
    Result bestBlocks = results.stream()
        .max(Comparator.comparingDouble(Result::blockHitRatio)).orElseThrow();
    Result bestJobs = results.stream()
        .max(Comparator.comparingDouble(Result::jobHitRatio)).orElseThrow();
    out.printf(Locale.ROOT, "%nGap to the bounds: block hits %.1f points (best: %s), job hits"
            + " %.1f points (best: %s)%n",
        100 * (blockBound.blockHitRatio() - bestBlocks.blockHitRatio()), bestBlocks.policy(),
        100 * (jobBoundRatio - bestJobs.jobHitRatio()), bestJobs.policy());
  }
}
