package org.mpcache.master.arbitrator;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.IntStream;

import org.mpcache.conf.CachedPaths;
import org.mpcache.conf.MasterSettings;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.protocol.AdmissionAnswer.Verdict;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.simulator.ToolOptions;

/**
 * Heap the cache master keeps in its NameNode (not a test): every table of a whole
 * {@link ReplaceArbitrator} (data-set table, policy, admission records, pass detection), measured
 * per tracked data set and per cached block. {@code --data-sets} data sets of
 * {@code --dataset-blocks} blocks each are read once, block by block, over {@code --nodes}
 * slaves whose SSDs hold them all, each read asking for admission as a slave's miss does.
 * Run: see docs/policies.md, "Scale".
 */
public final class MasterHeapBenchmark {
  private static final long BLOCK = TestReplaceArbitrator.BLOCK;
  private static final long[] NONE = new long[0];

  private static final ToolOptions OPTIONS = new ToolOptions(
      "dev-support/hdfs-bench-main.sh org.mpcache.master.MasterHeapBenchmark [options]")
      .valued("data-sets", "N", "1000000", "data sets read once, block by block")
      .valued("dataset-blocks", "N", "1", "blocks a data set")
      .valued("nodes", "N", "10", "slaves, whose SSDs hold every block")
      .valued("policy", "NAME", ReplacementPolicies.DEFAULT, "the master's policy");

  public static void main(String[] args) {
    ToolOptions.Values given = OPTIONS.parse(args);
    int dataSets = Integer.parseInt(given.value("data-sets"));
    int perDataSet = Integer.parseInt(given.value("dataset-blocks"));
    int nodes = Integer.parseInt(given.value("nodes"));
    String policy = given.value("policy");
    List<String> slaves = IntStream.range(0, nodes).mapToObj(n -> "slave-" + n).toList();
    if (perDataSet > TestReplaceArbitrator.FakeNamespace.MAX_BLOCKS) {
      throw new IllegalArgumentException("--dataset-blocks: at most "
          + TestReplaceArbitrator.FakeNamespace.MAX_BLOCKS);
    }
    int[] sizes = new int[dataSets];
    Arrays.fill(sizes, perDataSet);

    long heapBefore = usedHeap();
    ReplaceArbitrator master = new ReplaceArbitrator(new MasterSettings(new InetSocketAddress(0),
        1, policy, 1.0, 0.01, "directory", new CachedPaths(List.of(), List.of()), 1, 60_000, 10,
        Long.MAX_VALUE, 0.5, 2, new int[0], Integer.MAX_VALUE),
        new TestReplaceArbitrator.FakeNamespace(Set.copyOf(slaves), sizes),
        System::currentTimeMillis, new MasterCounter.Values());
    long blocks = (long) dataSets * perDataSet;
    SlaveUsage roomForAll = new SlaveUsage((blocks / nodes + 1) * BLOCK, 0, 0, 0, 0, 0, 0, "ok",
        0, 0);
    for (String slave : slaves) {
      master.register(slave, slave, roomForAll, NONE);
    }
    long admitted = 0;
    for (long dataSet = 0; dataSet < dataSets; dataSet++) {
      for (int i = 0; i < perDataSet; i++) {
        long block = dataSet * TestReplaceArbitrator.FakeNamespace.MAX_BLOCKS + i;
        String slave = slaves.get((int) ((dataSet * perDataSet + i) % nodes));
        Verdict verdict = master.requestAdmission(slave, block, BLOCK, NONE).verdict();
        admitted += verdict == Verdict.ADMIT ? 1 : 0;
      }
    }
    for (String slave : slaves) { // as the next heartbeats would: counts the tracked data sets
      master.heartbeat(slave, roomForAll, NONE, NONE, NONE, NONE);
    }
    long heap = usedHeap() - heapBefore;
    System.out.printf(Locale.ROOT, "%s master: %d data sets of %d blocks over %d nodes, %d"
        + " records in its tables, %d blocks admitted: %d bytes of heap per data set, %d per block"
        + " (%.0f MB)%n",
        policy, dataSets, perDataSet, nodes, master.gauges().trackedDataSets(), admitted,
        heap / dataSets, heap / blocks, heap / 1e6);
  }

  private static long usedHeap() {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
