package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import org.mpcache.bench.workload.WorkloadMix;
import org.mpcache.bench.workload.WorkloadMix.JobSpec;
import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy;
import org.mpcache.puma.InputSource;
import org.mpcache.simulator.JobBound;
import org.mpcache.simulator.OfflineBound;
import org.mpcache.simulator.PolicySimulator;
import org.mpcache.simulator.PumaWorkload;
import org.mpcache.simulator.ReadOrder;
import org.mpcache.simulator.Trace;
import org.mpcache.simulator.TraceJob;

/**
 * A seed's job stream run through the policy simulator (docs/policies.md): what the master's
 * policy, the block-level baselines and the offline bounds would hit on exactly the stream's
 * jobs, so a low hit ratio can be told apart as the running cache's fault or the stream's. The
 * blocks are placed as the stream places them ({@link StreamPlacement}, one replica); each node
 * caches as many whole blocks of the stream's block size as the room its cache leaves input data
 * at most ({@link ClusterSetup#inputCeilingBytes}). The running cache also lends part of that
 * room to localized data while tasks write it: given each node's least room during each timed
 * job as a run sampled it, the simulation takes that room away at the job's end, and the node
 * frees what it holds over it through the policy, as the master has a slave do (the run lends
 * while the job's maps still read; the simulation after its reads). A timed job whose client
 * reads its input before the tasks do (tera-sort's sampler, {@link
 * org.mpcache.puma.PumaBenchmark#splitsReadByClient}) is preceded by an untimed read of its data
 * set, as the cache sees it: exact while the client reads every block, as it does of data sets
 * of up to ten blocks (all of the default options' streams).
 */
final class StreamSimulation {
  /** Policies simulated beside the master's default. */
  private static final List<String> BASELINES = List.of("lfu", "lru");

  /**
   * Block and job hit ratios of the timed jobs (the history warms the cache, as in a stream).
   */
  record Figures(String name, double blockHitRatio, double jobHitRatio) {
  }

  /** No timed job's room sampled: the simulation keeps every node's whole room. */
  static final List<List<Long>> NOTHING_LENT = List.of();

  private final Trace trace;
  private final long blockBytes;
  /** Each trace job's index among the timed jobs; -1 for the history and clients' reads. */
  private final int[] timedIndex;
  /** What each trace job is, in the words of the harness's log ({@link #decisions}). */
  private final List<String> jobNames = new ArrayList<>();
  /** Each stream-wide file number's data set and index in it. */
  private final List<String> fileNames = new ArrayList<>();

  StreamSimulation(WorkloadMix mix, int nodes, long blockBytes, long inputBytesPerNode, double s,
      long seed) {
    this.blockBytes = blockBytes;
    Map<WorkloadMix.DataSet, TraceJob> placed = new HashMap<>();
    StreamPlacement placement = new StreamPlacement(mix, blockBytes);
    for (WorkloadMix.DataSet dataSet : mix.dataSets()) {
      int blocks = InputSource.files(dataSet.bytes(), blockBytes);
      int[] replicas = new int[blocks * PumaWorkload.REPLICATION];
      for (int b = 0; b < blocks; b++) {
        // One replica: the trace's replica slots all name its node.
        Arrays.fill(replicas, b * PumaWorkload.REPLICATION,
            (b + 1) * PumaWorkload.REPLICATION, placement.node(dataSet, b, nodes));
      }
      placed.put(dataSet, new TraceJob(new DataSet(placed.size(), blocks),
          placement.firstFile(dataSet), replicas, new int[blocks]));
      for (int b = 0; b < blocks; b++) { // file numbers in the placement's order
        fileNames.add(dataSet.dir(BenchCluster.INPUTS) + " block " + b);
      }
    }
    List<TraceJob> jobs = new ArrayList<>();
    List<Integer> timed = new ArrayList<>();
    for (JobSpec job : mix.history()) {
      jobs.add(placed.get(job.input()));
      timed.add(-1);
      jobNames.add("warm-up read " + jobs.size() + "/" + mix.history().size() + " of "
          + job.input().dir(BenchCluster.INPUTS));
    }
    for (JobSpec job : mix.jobs()) {
      TraceJob reads = placed.get(job.input());
      String name = "timed job " + job.index() + " (" + job.benchmark().name() + " on "
          + job.input().dir(BenchCluster.INPUTS) + ")";
      if (job.benchmark().splitsReadByClient(reads.dataSet().blocks()) > 0) {
        jobs.add(reads);
        timed.add(-1);
        jobNames.add("the client's read before " + name);
      }
      jobs.add(reads);
      timed.add(job.index());
      jobNames.add(name);
    }
    this.timedIndex = timed.stream().mapToInt(Integer::intValue).toArray();
    PolicySimulator.Settings settings = new PolicySimulator.Settings(nodes, 1, jobs.size(), s,
        inputBytesPerNode >> 20, (int) (blockBytes >> 20), seed);
    this.trace = Trace.of(settings, jobs);
  }

  /**
   * Each timed job's least room for input on each node, by the job's index, as a stream's run
   * sampled it ({@link JobResult#leastInputRoomBytes}); of a stream run in several sittings, the
   * first sitting's.
   */
  static List<List<Long>> leastInputRoom(List<JobResult> stream) {
    List<List<Long>> room = new ArrayList<>();
    for (JobResult job : stream) {
      while (room.size() <= job.index()) {
        room.add(null);
      }
      if (room.get(job.index()) == null) {
        room.set(job.index(), job.leastInputRoomBytes());
      }
    }
    room.replaceAll(nodes -> nodes == null ? List.of() : nodes);
    return room;
  }

  /** One timed job as a policy served it in the simulation: its blocks and how many hit. */
  record SimulatedJob(int blocks, int hits) {
    boolean whole() {
      return hits == blocks;
    }
  }

  /** The master's default policy, the baselines, then the offline bounds. */
  List<Figures> figures() {
    List<Figures> figures = new ArrayList<>();
    List<String> policies = new ArrayList<>(List.of(ReplacementPolicies.DEFAULT));
    policies.addAll(BASELINES);
    for (String name : policies) {
      List<SimulatedJob> jobs = timedJobs(name, NOTHING_LENT);
      figures.add(new Figures(name,
          jobs.stream().mapToInt(SimulatedJob::hits).sum()
              / (double) jobs.stream().mapToInt(SimulatedJob::blocks).sum(),
          jobs.stream().filter(SimulatedJob::whole).count() / (double) jobs.size()));
    }
    IntPredicate timed = job -> timedIndex[job] >= 0;
    figures.add(new Figures("offline bound", OfflineBound.run(trace, timed).blockHitRatio(),
        JobBound.jobHits(trace, timed) / (double) Arrays.stream(timedIndex).filter(i -> i >= 0)
            .count()));
    return figures;
  }

  /**
   * The timed jobs in order, as {@code policy} (a name {@link ReplacementPolicies} knows) serves
   * them, each node's room taken down after each timed job to what {@code leastInputRoom} gives
   * (by the job's index, each node's bytes in node order; none for a job or node it does not
   * list).
   */
  List<SimulatedJob> timedJobs(String policy, List<List<Long>> leastInputRoom) {
    TimedJobs jobs = new TimedJobs();
    run(policy, leastInputRoom, jobs);
    jobs.endJob();
    return jobs.served;
  }

  private void run(String policy, List<List<Long>> leastInputRoom,
      PolicySimulator.ReadObserver observer) {
    PolicySimulator.run(trace, policy(policy), ReadOrder.FILE, Integer.MAX_VALUE,
        (job, node) -> {
          int timed = timedIndex[job];
          List<Long> room = timed < 0 || timed >= leastInputRoom.size() ? List.of()
              : leastInputRoom.get(timed);
          return node < room.size() ? (int) Math.min(Integer.MAX_VALUE,
              room.get(node) / blockBytes) : Integer.MAX_VALUE;
        }, observer);
  }

  /**
   * The stream's reads, history and clients' reads included, as {@code policy} decides them: one
   * line a job, then one a read that misses (admitted, with the copies it evicts on that node, or
   * refused); hits are not listed, nor copies a policy condemns on other nodes (mpcache's
   * To_Del); then, after a job, a node's room lent to localized data ({@link #timedJobs}) and
   * what it evicts for it. Put beside the master's log of a run (its "admitting block", "refuses
   * block" and "room lent to localized data" lines) it shows where the run and the simulation
   * part (docs/benchmarks.md, "Against the specification").
   */
  List<String> decisions(String policy, List<List<Long>> leastInputRoom) {
    List<String> lines = new ArrayList<>();
    int[] lastJob = {-1};
    run(policy, leastInputRoom, new PolicySimulator.ReadObserver() {
      @Override
      public void read(int job, long block, int node, CacheDecision decision) {
        if (job != lastJob[0]) {
          lastJob[0] = job;
          lines.add(jobNames.get(job));
        }
        if (decision.hit()) {
          return;
        }
        lines.add("  " + fileName(block) + " on node " + node + (decision.admitted()
            ? ": admitted, evicting " + evicting(decision.evict()) : ": refused"));
      }

      @Override
      public void roomShrank(int job, int node, long[] evicted) {
        lines.add("  room on node " + node + " lent to localized data: evicting "
            + evicting(evicted));
      }
    });
    return lines;
  }

  /** How many copies go, and which. */
  private String evicting(long[] evict) {
    StringBuilder line = new StringBuilder().append(evict.length);
    for (int i = 0; i < evict.length; i++) {
      line.append(i == 0 ? " (" : ", ").append(fileName(evict[i]));
    }
    return line.append(evict.length > 0 ? ")" : "").toString();
  }

  /** The block's data set and index in it, and its stream-wide file number. */
  private String fileName(long block) {
    return fileNames.get((int) block) + " (file " + block + ")";
  }

  /** The named policy with the master's default constants. */
  private static ReplacementPolicy policy(String name) {
    return ReplacementPolicies.create(name, MpCachePolicy.DEFAULT_FULL_BONUS,
        AdmissionControl.BACK_TO_BACK_DISTANCE);
  }

  /** Collects the timed jobs' reads as the simulator reports them, in order. */
  private final class TimedJobs implements PolicySimulator.ReadObserver {
    private final List<SimulatedJob> served = new ArrayList<>();
    private int job = -1;
    private int blocks;
    private int hits;

    @Override
    public void read(int readJob, long block, int node, CacheDecision decision) {
      int timed = timedIndex[readJob];
      if (timed < 0) {
        return;
      }
      if (timed != job) {
        endJob();
        job = timed;
      }
      blocks++;
      hits += decision.hit() ? 1 : 0;
    }

    void endJob() {
      if (job >= 0) {
        served.add(new SimulatedJob(blocks, hits));
      }
      job = -1;
      blocks = 0;
      hits = 0;
    }
  }
}
