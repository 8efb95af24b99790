package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.ChartData.Bar;
import org.mpcache.bench.harness.ChartData.Series;

class TestChartData {
  @Test
  void aRowPerGroupWithTheIntervalsOfTheSeriesThatHaveThem() {
    ChartData chart = new ChartData("a test", "configuration", List.of("a, \"b\"", "c"),
        List.of(new Series("first", List.of(new Bar(2, 1.5, 2.5), Bar.of(3))),
            new Series("second", List.of(Bar.of(1), Bar.of(Double.NaN)))));
    assertEquals("""
        configuration,first,first 95 % low,first 95 % high,second
        "a, ""b\""",2.0000,1.5000,2.5000,1.0000
        c,3.0000,,,
        """, chart.csv());
  }

  @Test
  void everySeriesHasABarPerGroup() {
    assertThrows(IllegalArgumentException.class, () -> new ChartData("x", "x",
        List.of("a", "b"), List.of(new Series("s", List.of(Bar.of(1))))));
  }

  @Test
  void theSectionNamesItsChartFileAndSaysWhatTheChartShows() {
    ChartData chart = new ChartData("Ratios to stock.", "configuration", List.of("a"),
        List.of(new Series("ratio", List.of(Bar.of(2)))));
    Section section = new Section("ratios", "Ratios", List.of("Text."), null, chart);
    assertEquals("chart-ratios.csv", section.chartFile());
    assertEquals("""
        ## Ratios

        Text.

        Chart: `chart-ratios.csv`, a row per configuration. Ratios to stock.

        """, section.markdown());
  }
}
