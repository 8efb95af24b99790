package org.mpcache.simulator;

import java.util.SplittableRandom;

import org.mpcache.policy.DataSet;

/**
 * The synthetic multi-job mix of the mpCache paper §4.2: each job runs one of the 13 PUMA
 * benchmarks, chosen uniformly, on the data of its source (Table 1) scaled by {@code k}, drawn from
 * the Zipf law of Equation (3) over 1..20 with parameter {@code s}. Benchmarks that share a source
 * share its data sets, so several jobs re-read the same data. To keep the data-to-cache ratio of
 * the paper's 7-node cluster on larger clusters, the data exists once per tenant ({@code nodes / 7}
 * tenants by default), and each job belongs to a random tenant.
 *
 * <p>Each block has three replicas on distinct nodes, drawn from the block id
 * ({@link BlockPlacement}).
 */
public final class PumaWorkload {
  /** The data sources of Table 1 with their base sizes (the data at k = 1). */
  public enum Source {
    WIKIPEDIA(4.3), NETFLIX(3.0), PUMA_I(3.0), PUMA_II(3.0), PUMA_III(4.2), PUMA_IV(3.0);

    private final double baseGb;

    Source(double baseGb) {
      this.baseGb = baseGb;
    }

    public double baseMb() {
      return baseGb * 1024;
    }
  }

  private static final Source[] SOURCES = Source.values();
  /** The source of each of the 13 benchmarks. */
  private static final Source[] BENCHMARK_SOURCE = {Source.WIKIPEDIA, Source.WIKIPEDIA,
      Source.WIKIPEDIA, Source.WIKIPEDIA, Source.WIKIPEDIA, Source.NETFLIX, Source.NETFLIX,
      Source.NETFLIX, Source.NETFLIX, Source.PUMA_I, Source.PUMA_II, Source.PUMA_III,
      Source.PUMA_IV};
  public static final int MAX_K = 20;
  public static final int REPLICATION = 3;

  private final int nodes;
  private final int tenants;
  private final ZipfScale scale;
  private final DataSet[] dataSets;
  private final long[] firstBlock;
  private final long seed;
  private final int shiftEvery;

  public PumaWorkload(int nodes, int tenants, double s, int blockMb, long seed) {
    this(nodes, tenants, s, blockMb, seed, 0);
  }

  /**
   * {@code shiftEvery}: after every so many jobs the sources trade places in the benchmark mix
   * (a random permutation), so other data sets become the popular ones while the mix keeps its
   * shape; 0 never.
   */
  public PumaWorkload(int nodes, int tenants, double s, int blockMb, long seed,
      int shiftEvery) {
    this.shiftEvery = shiftEvery;
    this.nodes = nodes;
    this.tenants = tenants;
    this.seed = seed;
    this.scale = new ZipfScale(MAX_K, s);
    int count = tenants * SOURCES.length * MAX_K;
    dataSets = new DataSet[count];
    firstBlock = new long[count];
    long next = 0;
    for (int id = 0; id < count; id++) {
      int source = (id / MAX_K) % SOURCES.length;
      int k = id % MAX_K + 1;
      int blocks = (int) Math.ceil(k * SOURCES[source].baseMb() / blockMb);
      dataSets[id] = new DataSet(id, blocks);
      firstBlock[id] = next;
      next += blocks;
    }
  }

  /** The data sets of all jobs, in order: the same sequence for a given seed. */
  public JobStream jobs() {
    return new JobStream(new SplittableRandom(seed));
  }

  /** A deterministic sequence of jobs' input data sets. */
  public final class JobStream {
    private final SplittableRandom random;
    /** Which source each source of the mix stands for now (a permutation). */
    private final int[] standsFor = {0, 1, 2, 3, 4, 5};
    private long drawn;

    private JobStream(SplittableRandom random) {
      this.random = random;
    }

    public DataSet next() {
      if (shiftEvery > 0 && drawn > 0 && drawn % shiftEvery == 0) {
        for (int i = standsFor.length - 1; i > 0; i--) {
          int j = random.nextInt(i + 1);
          int swap = standsFor[i];
          standsFor[i] = standsFor[j];
          standsFor[j] = swap;
        }
      }
      drawn++;
      int source =
          standsFor[BENCHMARK_SOURCE[random.nextInt(BENCHMARK_SOURCE.length)].ordinal()];
      int tenant = random.nextInt(tenants);
      int k = scale.draw(random.nextDouble());
      return dataSets[(tenant * SOURCES.length + source) * MAX_K + k - 1];
    }
  }

  public long firstBlock(DataSet dataSet) {
    return firstBlock[dataSet.id()];
  }

  /** Total blocks of all data sets (one replica). */
  public long totalBlocks() {
    return firstBlock[dataSets.length - 1] + dataSets[dataSets.length - 1].blocks();
  }

  /** The nodes holding the block's replicas, distinct, fixed per block. */
  public void replicas(long block, int[] into) {
    BlockPlacement.replicas(nodes, seed, block, into);
  }

  public int nodes() {
    return nodes;
  }
}
