package org.mpcache.puma;

import java.util.List;

/**
 * The 13 PUMA benchmarks (Purdue MapReduce Benchmarks Suite, Ahmad et al. 2012) in the suite's
 * order: the one list the driver and the benchmark harness choose from.
 */
public final class PumaBenchmarks {
  private static final List<PumaBenchmark> ALL = List.of(
      new TextBenchmarks.Grep(), new TextBenchmarks.WordCount(),
      new TextBenchmarks.InvertedIndex(), new TextBenchmarks.TermVector(),
      new TextBenchmarks.SequenceCount(), new RatingBenchmarks.HistogramRatings(),
      new RatingBenchmarks.HistogramMovies(), new RatingBenchmarks.Classification(),
      new RatingBenchmarks.KMeans(), new StructureBenchmarks.SelfJoin(),
      new StructureBenchmarks.AdjacencyList(), new StructureBenchmarks.RankedInvertedIndex(),
      new TeraSort());

  private PumaBenchmarks() {
  }

  public static List<PumaBenchmark> all() {
    return ALL;
  }

  /**
   * The benchmark called {@code name} (any case).
   *
   * @throws IllegalArgumentException naming the valid names if there is none
   */
  public static PumaBenchmark byName(String name) {
    return ALL.stream().filter(b -> b.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no PUMA benchmark '" + name
            + "'; choose from " + ALL.stream().map(PumaBenchmark::name).toList()));
  }
}
