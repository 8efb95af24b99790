package org.mpcache.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.Path;
import org.mpcache.puma.InputSource;
import org.mpcache.puma.PumaBenchmark;
import org.mpcache.simulator.PumaWorkload;
import org.mpcache.simulator.ZipfScale;

/**
 * The multi-job mix of the mpCache paper §4.2 on a real cluster: each job runs a benchmark drawn at
 * random, on the data of its source at scale {@code k} (Equation (3), parameter {@code s}), of
 * {@code k × base × Table 1 size}. Benchmarks that share a source share its data sets, so later
 * jobs re-read what earlier ones read. The draws start with a history (jobs that ran before the
 * measured ones: what a cache has seen when the measurement starts, as in the paper's steady
 * state), then the jobs to time. The same seed always gives the same jobs.
 */
public final class WorkloadMix {
  /** Table 1's smallest base size: a source of this size gets exactly {@code baseBytes}. */
  private static final double SMALLEST_TABLE_MB = Arrays.stream(PumaWorkload.Source.values())
      .mapToDouble(PumaWorkload.Source::baseMb).min().orElseThrow();

  /** One input data set: a source at a scale. */
  public record DataSet(InputSource source, int k, long bytes) {
    public Path dir(Path root) {
      return new Path(root, source.dirName() + "/k" + k);
    }

    /** Seed of the generator: the same data set always has the same bytes. */
    public long seed() {
      return source.ordinal() * 1000L + k;
    }
  }

  /** One job of the mix. */
  public record JobSpec(int index, PumaBenchmark benchmark, DataSet input) {
  }

  private final List<JobSpec> history;
  private final List<JobSpec> jobs;

  public WorkloadMix(List<PumaBenchmark> benchmarks, int historyCount, int jobCount, double s,
      int maxK, long baseBytes, long seed) {
    ZipfScale scale = new ZipfScale(maxK, s);
    SplittableRandom random = new SplittableRandom(seed);
    List<JobSpec> drawn = new ArrayList<>();
    for (int i = -historyCount; i < jobCount; i++) {
      PumaBenchmark benchmark = benchmarks.get(random.nextInt(benchmarks.size()));
      int k = scale.draw(random.nextDouble());
      InputSource source = benchmark.source();
      double tableMb = tableOneRow(source).baseMb();
      long bytes = (long) (k * baseBytes * tableMb / SMALLEST_TABLE_MB);
      drawn.add(new JobSpec(i, benchmark, new DataSet(source, k, bytes)));
    }
    this.history = List.copyOf(drawn.subList(0, historyCount));
    this.jobs = List.copyOf(drawn.subList(historyCount, drawn.size()));
  }

  /** The row of Table 1 whose base size a generated source takes. */
  static PumaWorkload.Source tableOneRow(InputSource source) {
    return switch (source) {
      case WIKIPEDIA -> PumaWorkload.Source.WIKIPEDIA;
      case NETFLIX -> PumaWorkload.Source.NETFLIX;
      case PUMA_I -> PumaWorkload.Source.PUMA_I;
      case PUMA_II -> PumaWorkload.Source.PUMA_II;
      case PUMA_III -> PumaWorkload.Source.PUMA_III;
      case PUMA_IV -> PumaWorkload.Source.PUMA_IV;
    };
  }

  /** The jobs before the measured ones, oldest first; their indexes are negative. */
  public List<JobSpec> history() {
    return history;
  }

  /** The jobs to time, indexed from 0. */
  public List<JobSpec> jobs() {
    return jobs;
  }

  /** The distinct data sets the history and the jobs read, in first-use order. */
  public Set<DataSet> dataSets() {
    Set<DataSet> sets = new LinkedHashSet<>();
    history.forEach(job -> sets.add(job.input()));
    jobs.forEach(job -> sets.add(job.input()));
    return sets;
  }

  /** Bytes of all distinct data sets: the working set. */
  public long workingSetBytes() {
    return dataSets().stream().mapToLong(DataSet::bytes).sum();
  }
}
