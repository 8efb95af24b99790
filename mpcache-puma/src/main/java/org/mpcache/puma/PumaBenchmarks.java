package org.mpcache.puma;

import java.util.List;

/** The 13 PUMA benchmarks of seeds/000 Table 1, in its order. */
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

  public static PumaBenchmark byName(String name) {
    return ALL.stream().filter(b -> b.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no PUMA benchmark '" + name
            + "'; choose from " + ALL.stream().map(PumaBenchmark::name).toList()));
  }
}
