package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.mpcache.bench.harness.Stats.Interval;

/**
 * A horizontal bar chart, written as inline SVG: a row of bars per group (one bar per series,
 * side by side), each with its 95 % whisker where it has one, and an optional dashed reference
 * line (1.0 for ratios).
 *
 * @param id of the svg element
 * @param caption what the chart shows, under it
 * @param axis the scale's title and how its values read
 * @param groups the labels of the groups, top to bottom
 * @param series each with one bar per group
 * @param reference where the dashed line goes; NaN for none
 */
record BarChart(String id, String caption, Axis axis, List<String> groups, List<Series> series,
    double reference) {

  /** A bar's value; low and high are the whisker's ends, NaN without one. NaN value: no bar. */
  record Bar(double value, double low, double high) {
    static Bar of(double value) {
      return new Bar(value, Double.NaN, Double.NaN);
    }

    static Bar of(Interval interval) {
      return new Bar(interval.estimate(), interval.low(), interval.high());
    }

    boolean whisker() {
      return !Double.isNaN(low) && !Double.isNaN(high);
    }
  }

  record Series(String name, String colour, List<Bar> bars) {
  }

  /**
   * @param title under the scale
   * @param suffix after every number: "×", " %", " s"
   * @param decimals of the numbers at the bars
   */
  record Axis(String title, String suffix, int decimals) {
    String format(double value, int places) {
      return String.format(Locale.ROOT, "%." + places + "f", value) + suffix;
    }
  }

  private static final int WIDTH = 960;
  /** Width of a character of the 12 px sans-serif labels, generous so no label is cut. */
  private static final double CHAR_WIDTH = 7.2;
  private static final int BAR = 14;
  private static final int BAR_GAP = 3;
  private static final int GROUP_PADDING = 6;
  private static final int LEGEND_ROW = 20;
  private static final int AXIS_ROOM = 44;
  private static final int TICKS = 6;
  private static final double WHISKER_ROOM = 1.5;

  BarChart {
    for (Series s : series) {
      if (s.bars().size() != groups.size()) {
        throw new IllegalArgumentException(s.name() + ": " + s.bars().size() + " bars for "
            + groups.size() + " groups");
      }
    }
  }

  String svg() {
    int left = (int) Math.ceil(groups.stream().mapToInt(String::length).max().orElse(0)
        * CHAR_WIDTH) + 14;
    int right = (int) Math.ceil(bars().filter(b -> !Double.isNaN(b.value()))
        .mapToInt(b -> label(b).length()).max().orElse(0) * CHAR_WIDTH) + 12;
    List<int[]> legend = series.size() > 1 ? legendPlaces(WIDTH - left) : List.of();
    int top = 8 + (legend.isEmpty() ? 0 : legend.get(legend.size() - 1)[1] + 1) * LEGEND_ROW;
    int groupHeight = series.size() * (BAR + BAR_GAP) - BAR_GAP + 2 * GROUP_PADDING;
    int plotBottom = top + groups.size() * groupHeight;
    int height = plotBottom + AXIS_ROOM;
    double step = niceStep(top() / TICKS);
    double axisMax = Math.ceil(top() / step - 1e-9) * step;
    Scale x = new Scale(left, WIDTH - right, axisMax);

    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart\" "
            + "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
            + "aria-label=\"%s\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">",
        Xml.escape(id), WIDTH, height, WIDTH, height, Xml.escape(caption)));
    legend(svg, left, legend);
    for (int g = 0; g < groups.size(); g++) {
      int y = top + g * groupHeight;
      if (g % 2 == 1) {
        svg.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"0\" y=\"%d\" "
            + "width=\"%d\" height=\"%d\" fill=\"#f4f6f8\"/>", y, WIDTH, groupHeight));
      }
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
          + "dominant-baseline=\"middle\">%s</text>", left - 8, y + groupHeight / 2.0,
          Xml.escape(groups.get(g))));
    }
    int places = tickPlaces(step);
    for (int i = 0; i * step <= axisMax + 1e-9; i++) {
      double at = x.at(i * step);
      svg.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
          + "x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/><text class=\"tick\" x=\"%.1f\" "
          + "y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>", at, top, at, plotBottom,
          i == 0 ? "#888" : "#dde1e6", at, plotBottom + 16, axis.format(i * step, places)));
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
        + "fill=\"#555\">%s</text>", (left + WIDTH - right) / 2.0, plotBottom + 36,
        Xml.escape(axis.title())));
    for (int g = 0; g < groups.size(); g++) {
      for (int s = 0; s < series.size(); s++) {
        int y = top + g * groupHeight + GROUP_PADDING + s * (BAR + BAR_GAP);
        bar(svg, x, y, groups.get(g), series.get(s), series.get(s).bars().get(g));
      }
    }
    if (!Double.isNaN(reference)) {
      svg.append(String.format(Locale.ROOT, "<line class=\"reference\" x1=\"%.1f\" y1=\"%d\" "
          + "x2=\"%.1f\" y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"1.5\" "
          + "stroke-dasharray=\"5 4\"/>", x.at(reference), top - 4, x.at(reference),
          plotBottom));
    }
    return svg.append("</svg>").toString();
  }

  /** Maps values to x: 0 at the plot's left edge, axisMax at its right edge. */
  private record Scale(int left, int right, double axisMax) {
    double at(double value) {
      return left + value / axisMax * (right - left);
    }
  }

  private void bar(StringBuilder svg, Scale x, int y, String group, Series of, Bar bar) {
    if (Double.isNaN(bar.value())) {
      return;
    }
    double end = x.at(bar.value());
    svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" data-group=\"%s\" "
        + "data-series=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
        + "<title>%s, %s: %s</title></rect>", Xml.escape(group), Xml.escape(of.name()),
        x.left(), y, end - x.left(), BAR, of.colour(), Xml.escape(group),
        Xml.escape(of.name()), Xml.escape(label(bar) + (bar.whisker()
            ? " (95 % interval " + axis.format(bar.low(), axis.decimals()) + "–"
                + axis.format(bar.high(), axis.decimals()) + ")" : ""))));
    double middle = y + BAR / 2.0;
    double labelAt = end;
    if (bar.whisker()) {
      double low = x.at(bar.low());
      boolean clipped = bar.high() > x.axisMax();
      double high = x.at(Math.min(bar.high(), x.axisMax()));
      svg.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" "
          + "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\"/>", low, middle, high,
          middle));
      cap(svg, low, middle, false);
      cap(svg, high, middle, clipped);
      labelAt = Math.max(end, high);
    }
    // a white halo keeps the number legible where it crosses the reference line
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" "
        + "dominant-baseline=\"middle\" stroke=\"#fff\" stroke-width=\"3\" "
        + "paint-order=\"stroke\">%s</text>", labelAt + 5, middle, Xml.escape(label(bar))));
  }

  /** A whisker's end: a bar across it, or an arrowhead where the scale cuts the whisker off. */
  private static void cap(StringBuilder svg, double x, double y, boolean cut) {
    svg.append(cut
        ? String.format(Locale.ROOT, "<path class=\"whisker-cap\" d=\"M%.1f %.1f l6 4 l-6 4\" "
            + "fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\"/>", x - 6, y - 4)
        : String.format(Locale.ROOT, "<line class=\"whisker-cap\" x1=\"%.1f\" y1=\"%.1f\" "
            + "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\"/>", x, y - 4, x,
            y + 4));
  }

  /** Where each series' swatch goes: x from the plot's left edge and row, wrapped at width. */
  private List<int[]> legendPlaces(int width) {
    List<int[]> places = new ArrayList<>();
    int x = 0;
    int row = 0;
    for (Series s : series) {
      if (x > 0 && x + legendItemWidth(s) > width) {
        x = 0;
        row++;
      }
      places.add(new int[] {x, row});
      x += legendItemWidth(s);
    }
    return places;
  }

  private void legend(StringBuilder svg, int left, List<int[]> places) {
    for (int i = 0; i < places.size(); i++) {
      int x = left + places.get(i)[0];
      int y = 8 + places.get(i)[1] * LEGEND_ROW;
      svg.append(String.format(Locale.ROOT, "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" "
          + "width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
          + "dominant-baseline=\"middle\">%s</text></g>", x, y, series.get(i).colour(), x + 17,
          y + 6, Xml.escape(series.get(i).name())));
    }
  }

  private static int legendItemWidth(Series s) {
    return (int) Math.ceil(s.name().length() * CHAR_WIDTH) + 34;
  }

  private String label(Bar bar) {
    return axis.format(bar.value(), axis.decimals());
  }

  private Stream<Bar> bars() {
    return series.stream().flatMap(s -> s.bars().stream());
  }

  /**
   * The largest value the scale must show: every bar, the reference and the whiskers, but a
   * whisker only up to {@link #WHISKER_ROOM} times the longest bar, so that one wide interval (a
   * benchmark with two jobs) does not squeeze every bar; longer whiskers are cut at the edge.
   */
  private double top() {
    double bars = Stream.concat(bars().map(Bar::value), Stream.of(reference))
        .mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).max().orElse(1);
    double whiskers = bars().mapToDouble(Bar::high).filter(v -> !Double.isNaN(v)).max()
        .orElse(0);
    double top = Math.max(bars, Math.min(whiskers, WHISKER_ROOM * bars));
    return top > 0 ? top : 1;
  }

  /** 1, 2, 2.5 or 5 times a power of ten: the smallest at least {@code rough}. */
  static double niceStep(double rough) {
    double power = Math.pow(10, Math.floor(Math.log10(rough)));
    for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
      if (factor * power >= rough - 1e-12) {
        return factor * power;
      }
    }
    return 10 * power;
  }

  /** Decimals a tick label needs to show the step exactly (0.25 → 2, 5 → 0). */
  private static int tickPlaces(double step) {
    int places = 0;
    while (places < 6 && Math.abs(step * Math.pow(10, places)
        - Math.rint(step * Math.pow(10, places))) > 1e-9) {
      places++;
    }
    return places;
  }
}
