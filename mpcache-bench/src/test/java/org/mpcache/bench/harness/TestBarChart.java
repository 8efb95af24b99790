package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.bench.harness.Dom.elements;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.BarChart.Axis;
import org.mpcache.bench.harness.BarChart.Bar;
import org.mpcache.bench.harness.BarChart.Series;
import org.w3c.dom.Element;

class TestBarChart {
  private static final Axis RATIO = new Axis("ratio", "×", 2);

  private static Element svg(BarChart chart) throws Exception {
    return Dom.parse(chart.svg()).getDocumentElement();
  }

  private static double x(Element e, String attribute) {
    return Double.parseDouble(e.getAttribute(attribute));
  }

  /** Two groups, two series; the second series has no bar in the second group. */
  private static BarChart chart(Bar... bars) {
    return new BarChart("chart-test", "a test", RATIO, List.of("a <&> b", "c"), List.of(
        new Series("first", "#111111", List.of(bars[0], bars[1])),
        new Series("second", "#222222", List.of(bars[2], Bar.of(Double.NaN)))), 1.0);
  }

  @Test
  void oneBarPerSeriesAndGroupWithAWhiskerWhereItHasAnInterval() throws Exception {
    Element svg = svg(chart(new Bar(2, 1.5, 2.5), Bar.of(3), new Bar(1, 0.8, 1.2)));
    assertEquals("chart-test", svg.getAttribute("id"));
    List<Element> bars = elements(svg, "rect", "bar");
    assertEquals(List.of("a <&> b/first", "a <&> b/second", "c/first"), bars.stream()
        .map(b -> b.getAttribute("data-group") + "/" + b.getAttribute("data-series")).toList());
    assertEquals(List.of("#111111", "#222222", "#111111"),
        bars.stream().map(b -> b.getAttribute("fill")).toList());
    assertEquals(2, elements(svg, "line", "whisker").size());
    assertEquals(2, elements(svg, "g", "legend").size());
    // bars start at 0 and are as long as their values
    double zero = x(bars.get(0), "x");
    double unit = x(bars.get(0), "width") / 2;
    assertEquals(3 * unit, x(bars.get(2), "width"), 0.2);
    Element whisker = elements(svg, "line", "whisker").get(0);
    assertEquals(zero + 1.5 * unit, x(whisker, "x1"), 0.2);
    assertEquals(zero + 2.5 * unit, x(whisker, "x2"), 0.2);
    Element reference = elements(svg, "line", "reference").get(0);
    assertEquals(zero + unit, x(reference, "x1"), 0.2);
  }

  @Test
  void oneSeriesNeedsNoLegend() throws Exception {
    BarChart chart = new BarChart("one", "one series", RATIO, List.of("a"),
        List.of(new Series("only", "#111111", List.of(Bar.of(2)))), Double.NaN);
    assertEquals(List.of(), elements(svg(chart), "g", "legend"));
    assertEquals(List.of(), elements(svg(chart), "line", "reference"));
  }

  @Test
  void aVeryWideIntervalIsCutRatherThanSqueezingTheBars() throws Exception {
    Element svg = svg(chart(new Bar(2, 0.5, 16), Bar.of(3), Bar.of(1)));
    List<Element> ticks = elements(svg, "text", "tick");
    String last = ticks.get(ticks.size() - 1).getTextContent();
    // the scale reaches 1.5 times the longest bar, not the whisker's 16
    assertEquals("5×", last);
    assertEquals(1, elements(svg, "path", "whisker-cap").size());
  }

  @Test
  void everySeriesNeedsABarPerGroup() {
    assertThrows(IllegalArgumentException.class, () -> new BarChart("x", "x", RATIO,
        List.of("a", "b"), List.of(new Series("s", "#000000", List.of(Bar.of(1)))), 1.0));
  }

  @Test
  void stepsAreOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
    assertEquals(0.5, BarChart.niceStep(0.37), 1e-12);
    assertEquals(2, BarChart.niceStep(1.2), 1e-12);
    assertEquals(2.5, BarChart.niceStep(2.1), 1e-12);
    assertEquals(10, BarChart.niceStep(7), 1e-12);
    assertTrue(Math.abs(BarChart.niceStep(0.001) - 0.001) < 1e-15);
  }
}
