package org.mpcache.bench.harness;

import java.util.List;

/**
 * A part of the report: a heading, paragraphs (Markdown, where **bold** is the only markup), a
 * table (or null) and the charts that draw it.
 *
 * @param id the part's anchor on the page; its table is {@code table-<id>}
 */
record Section(String id, String title, List<String> paragraphs, Table table,
    List<BarChart> charts) {

  String markdown() {
    StringBuilder md = new StringBuilder("## ").append(title).append("\n\n");
    paragraphs.forEach(p -> md.append(p).append("\n\n"));
    if (table != null) {
      md.append(table.markdown()).append('\n');
    }
    return md.toString();
  }
}
