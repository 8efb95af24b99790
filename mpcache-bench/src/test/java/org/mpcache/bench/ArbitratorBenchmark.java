package org.mpcache.bench;

import static org.mpcache.simulator.CommandLine.option;

import java.util.Locale;
import java.util.SplittableRandom;

import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy;

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
  public static void main(String[] args) {
    int blocks = Integer.parseInt(option(args, "--blocks", "1000000"));
    int perDataSet = Integer.parseInt(option(args, "--dataset-blocks", "100"));
    int nodes = Integer.parseInt(option(args, "--nodes", "100"));
    int events = Integer.parseInt(option(args, "--events", "5000000"));
    String name = option(args, "--policy", "mpcache");
    boolean asJobs = Boolean.parseBoolean(option(args, "--as-jobs", "false"));

    long heapBefore = usedHeap();
    ReplacementPolicy policy = ReplacementPolicies.create(name, MpCachePolicy.DEFAULT_FULL_BONUS,
        AdmissionControl.BACK_TO_BACK_DISTANCE);
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
