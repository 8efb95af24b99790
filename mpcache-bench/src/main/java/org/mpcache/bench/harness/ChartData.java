package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.mpcache.simulator.Interval;

/**
 * A bar chart's data as CSV, for a spreadsheet to draw: a row per group, a column per series,
 * and beside a series that has intervals the 95 % interval's ends.
 *
 * @param caption what the chart shows, as the report says under its section
 * @param groupColumn what a row is ("configuration", "benchmark")
 * @param groups the rows' labels, in order
 * @param series each with one bar per group
 */
record ChartData(String caption, String groupColumn, List<String> groups, List<Series> series) {

  /** A bar's value; low and high are its interval's ends, NaN without one. NaN value: no bar. */
  record Bar(double value, double low, double high) {
    static Bar of(double value) {
      return new Bar(value, Double.NaN, Double.NaN);
    }

    static Bar of(Interval interval) {
      return new Bar(interval.estimate(), interval.low(), interval.high());
    }

    boolean hasInterval() {
      return !Double.isNaN(low) && !Double.isNaN(high);
    }
  }

  record Series(String name, List<Bar> bars) {
    boolean hasIntervals() {
      return bars.stream().anyMatch(Bar::hasInterval);
    }
  }

  ChartData {
    for (Series s : series) {
      if (s.bars().size() != groups.size()) {
        throw new IllegalArgumentException(s.name() + ": " + s.bars().size() + " bars for "
            + groups.size() + " groups");
      }
    }
  }

  /** The header line and a line per group; an empty field where a group has no bar. */
  String csv() {
    List<String> header = new ArrayList<>(List.of(groupColumn));
    for (Series s : series) {
      header.add(s.name());
      if (s.hasIntervals()) {
        header.add(s.name() + " 95 % low");
        header.add(s.name() + " 95 % high");
      }
    }
    StringBuilder csv = new StringBuilder(line(header));
    for (int g = 0; g < groups.size(); g++) {
      List<String> row = new ArrayList<>(List.of(groups.get(g)));
      for (Series s : series) {
        Bar bar = s.bars().get(g);
        row.add(number(bar.value()));
        if (s.hasIntervals()) {
          row.add(number(bar.low()));
          row.add(number(bar.high()));
        }
      }
      csv.append(line(row));
    }
    return csv.toString();
  }

  private static String line(List<String> fields) {
    return fields.stream().map(ChartData::field).collect(Collectors.joining(",")) + "\n";
  }

  /** The text as a CSV field: quoted, its quotes doubled, where it holds a comma or a quote. */
  private static String field(String text) {
    return text.contains(",") || text.contains("\"")
        ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
  }
}
