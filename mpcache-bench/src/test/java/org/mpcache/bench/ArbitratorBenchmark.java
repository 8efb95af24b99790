package org.mpcache.bench;

import java.util.Locale;
import java.util.SplittableRandom;

import org.mpcache.policy.DataSet;
import org.mpcache.policy.ReplacementPolicy;
import org.mpcache.simulator.SimulatorPolicies;
import org.mpcache.simulator.ToolOptions;

/**
 * Scale of the Replace Arbitrator's policy ({@code --policy}, mpcache by default; not a test):
 * access events per second on one thread, and heap per tracked block. Tracks {@code --blocks}
 * cached blocks in data sets of {@code --dataset-blocks} blocks over {@code --nodes} nodes, then
 * replays {@code --events} hits: on random blocks, or with {@code --as-jobs true} as jobs (a
 * random data set's access, then a read of each of its blocks), which also costs the re-ranking
 * a data-set access makes.
 * Run: {@code java -Xmx8g -cp target/classes:target/test-classes org.mpcache.bench.ArbitratorBenchmark}.
 */
public final class ArbitratorBenchmark {
  private static final ToolOptions OPTIONS = new ToolOptions(
      "dev-support/hdfs-bench-main.sh org.mpcache.bench.ArbitratorBenchmark [options]")
      .valued("blocks", "N", "1000000", "cached blocks the policy tracks")
      .valued("dataset-blocks", "N", "100", "blocks a data set")
      .valued("nodes", "N", "100", "nodes the blocks are cached on")
      .valued("events", "N", "5000000", "hits replayed")
      .valued("policy", "NAME", "mpcache", "the policy")
      .valued("as-jobs", "true|false", "false", "replay the hits as jobs: a random data set's "
          + "access, then a read of each of its blocks");

  public static void main(String[] args) {
    ToolOptions.Values given = OPTIONS.parse(args);
    int blocks = Integer.parseInt(given.value("blocks"));
    int perDataSet = Integer.parseInt(given.value("dataset-blocks"));
    int nodes = Integer.parseInt(given.value("nodes"));
    int events = Integer.parseInt(given.value("events"));
    String name = given.value("policy");
    boolean asJobs = Boolean.parseBoolean(given.value("as-jobs"));

    long heapBefore = usedHeap();
    ReplacementPolicy policy = SimulatorPolicies.create(name);
    for (int node = 0; node < nodes; node++) {
      policy.setCapacity(node, blocks / nodes + 1);
    }
    DataSet[] dataSets = new DataSet[(blocks + perDataSet - 1) / perDataSet];
    for (int i = 0; i < dataSets.length; i++) {
      dataSets[i] = new DataSet(i, perDataSet);
      policy.dataSetAccessed(dataSets[i]);
    }
    for (long block = 0; block < blocks; block++) {
      policy.access((int) (block % nodes), block, dataSets[(int) (block / perDataSet)]);
    }
    long heapPerBlock = (usedHeap() - heapBefore) / blocks;

    SplittableRandom random = new SplittableRandom(1);
    long hits = 0;
    long start = System.nanoTime();
    long block = 0;
    for (int i = 0; i < events; i++) {
      if (!asJobs) {
        block = random.nextInt(blocks);
      } else if (i % perDataSet == 0) { // a job over one of the whole data sets
        block = (long) random.nextInt(blocks / perDataSet) * perDataSet;
        policy.dataSetAccessed(dataSets[(int) (block / perDataSet)]);
      } else {
        block++;
      }
      hits += policy.access((int) (block % nodes), block, dataSets[(int) (block / perDataSet)])
          .hit() ? 1 : 0;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "%s: %d blocks tracked: %d bytes of heap per block;"
        + " %d access events (%d hits%s) in %.2f s = %.0f events/s on one thread%n",
        policy.name(), blocks, heapPerBlock, events, hits, asJobs ? ", as jobs" : "", seconds,
        events / seconds);
  }

  private static long usedHeap() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
