package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The registry: PUMA's 13 benchmarks in the suite's order, each on its data source. */
class TestPumaBenchmarks {
  @Test
  void listsThePumaBenchmarksInOrderWithTheirSources() {
    List<String> expected = List.of("grep wikipedia", "word-count wikipedia",
        "inverted-index wikipedia", "term-vector wikipedia", "sequence-count wikipedia",
        "histogram-ratings netflix", "histogram-movies netflix", "classification netflix",
        "k-means netflix", "self-join puma-i", "adjacency-list puma-ii",
        "ranked-inverted-index puma-iii", "tera-sort puma-iv");
    assertEquals(expected, PumaBenchmarks.all().stream()
        .map(b -> b.name() + " " + b.source().dirName()).toList());
  }

  @Test
  void findsBenchmarksByNameInAnyCase() {
    assertSame(PumaBenchmarks.all().get(12), PumaBenchmarks.byName("Tera-Sort"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PumaBenchmarks.byName("wordcount"));
    assertTrue(e.getMessage().contains("word-count, inverted-index"), e.getMessage());
  }
}
