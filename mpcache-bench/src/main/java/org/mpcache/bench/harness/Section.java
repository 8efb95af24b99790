package org.mpcache.bench.harness;

import java.util.List;

/**
 * A part of the report: a heading, paragraphs (Markdown), a table (or null) and the data of the
 * chart that draws it (or null), which the results folder holds as {@link #chartFile()}.
 *
 * @param id names the part's chart file
 */
record Section(String id, String title, List<String> paragraphs, Table table, ChartData chart) {

  String chartFile() {
    return "chart-" + id + ".csv";
  }

  String markdown() {
    StringBuilder md = new StringBuilder("## ").append(title).append("\n\n");
    paragraphs.forEach(p -> md.append(p).append("\n\n"));
    if (table != null) {
      md.append(table.markdown()).append('\n');
    }
    if (chart != null) {
      md.append("Chart: `").append(chartFile()).append("`, a row per ")
          .append(chart.groupColumn()).append(". ").append(chart.caption()).append("\n\n");
    }
    return md.toString();
  }
}
