package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.List;

/** A table of the report: a header and rows of cells, written as Markdown. */
final class Table {
  /**
   * How a cell reads: text, a number (aligned right), or a verdict (uncertain: the verdict would
   * change within the interval).
   */
  enum Style {
    TEXT, NUMBER, PASS, FAIL, UNCERTAIN, NOT_MEASURED;

    boolean number() {
      return this == NUMBER;
    }
  }

  /** A cell: its text, then its detail (an interval, a count). */
  record Cell(String text, String detail, Style style) {
    Cell(String text, Style style) {
      this(text, "", style);
    }

    static Cell text(String text) {
      return new Cell(text, Style.TEXT);
    }

    static Cell number(String text) {
      return new Cell(text, Style.NUMBER);
    }

    String markdown() {
      return detail.isEmpty() ? text : text + " " + detail;
    }
  }

  private final List<String> header;
  private final List<List<Cell>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = List.of(header);
  }

  Table row(Cell... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(cells.length + " cells for " + header);
    }
    rows.add(List.of(cells));
    return this;
  }

  List<List<Cell>> rows() {
    return rows;
  }

  /** Whether the column holds numbers (as its first row says), so it is aligned right. */
  boolean numeric(int column) {
    return !rows.isEmpty() && rows.get(0).get(column).style().number();
  }

  /** Columns padded to their width, so the table reads on a console too. */
  String markdown() {
    int[] widths = new int[header.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = Math.max(3, width(header.get(c)));
      for (List<Cell> row : rows) {
        widths[c] = Math.max(widths[c], width(row.get(c).markdown()));
      }
    }
    StringBuilder md = new StringBuilder();
    line(md, header, widths);
    md.append('|');
    for (int c = 0; c < widths.length; c++) {
      md.append(numeric(c) ? "-".repeat(widths[c] + 1) + ":|" : "-".repeat(widths[c] + 2) + "|");
    }
    md.append('\n');
    rows.forEach(row -> line(md, row.stream().map(Cell::markdown).toList(), widths));
    return md.toString();
  }

  private void line(StringBuilder md, List<String> texts, int[] widths) {
    md.append('|');
    for (int c = 0; c < widths.length; c++) {
      String padding = " ".repeat(widths[c] - width(texts.get(c)));
      md.append(' ').append(numeric(c) ? padding + texts.get(c) : texts.get(c) + padding)
          .append(" |");
    }
    md.append('\n');
  }

  private static int width(String text) {
    return text.codePointCount(0, text.length());
  }
}
