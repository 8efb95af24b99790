package org.mpcache.bench.harness;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.mpcache.bench.harness.Table.Cell;

/**
 * The report as one self-contained page: well-formed XHTML (any XML parser reads it), with its
 * style inline, the tables as tables and the charts as inline SVG.
 */
final class HtmlPage {
  private static final Pattern BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
  private static final String STYLE = String.join("",
      "body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;",
      "color:#1f2328;background:#fff;max-width:1100px;margin:0 auto;padding:1.5em 2em 4em}",
      "h1{font-size:1.7em;margin:.3em 0 .5em}",
      "h2{font-size:1.3em;margin:2.2em 0 .6em;padding-bottom:.2em;border-bottom:1px solid #d8dee4}",
      "p{max-width:80ch}nav ul{columns:2;padding-left:1.2em}a{color:#0b5cad}",
      ".table-wrap{overflow-x:auto;margin:1em 0}",
      "table{border-collapse:collapse;font-size:14px;font-variant-numeric:tabular-nums}",
      "th,td{padding:5px 8px;border-bottom:1px solid #e3e6ea;text-align:left;",
      "vertical-align:top}td:first-child{white-space:nowrap}",
      "th{background:#f4f6f8;border-bottom:2px solid #cfd5dc;vertical-align:bottom}",
      "td.number,th.number{text-align:right}td.number{white-space:nowrap}",
      ".detail{display:block;font-size:12px;color:#57606a}",
      "td.pass{background:#e6f4ea;color:#14532d;font-weight:600}",
      "td.fail{background:#fde8e8;color:#8b1a1a;font-weight:600}",
      "td.uncertain{background:#fff4d6;color:#7a4b00;font-weight:600}",
      "td.not-measured{background:#f1f3f5;color:#555;font-style:italic}",
      "figure{margin:1.5em 0}figure svg{display:block;max-width:100%;height:auto}",
      "figcaption{font-size:13px;color:#57606a;margin-top:.4em;max-width:80ch}");

  private HtmlPage() {
  }

  static String of(String title, List<String> intro, List<Section> sections) {
    StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/"
        + "xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" "
        + "content=\"width=device-width, initial-scale=1\"/><title>")
        .append(Xml.escape(title)).append("</title><style>").append(STYLE)
        .append("</style></head><body><h1>").append(Xml.escape(title)).append("</h1>");
    intro.forEach(p -> paragraph(html, p));
    html.append("<nav><ul>");
    sections.forEach(s -> html.append("<li><a href=\"#").append(Xml.escape(s.id()))
        .append("\">").append(Xml.escape(s.title())).append("</a></li>"));
    html.append("</ul></nav>");
    sections.forEach(s -> section(html, s));
    return html.append("</body></html>\n").toString();
  }

  private static void section(StringBuilder html, Section section) {
    html.append("<section id=\"").append(Xml.escape(section.id())).append("\"><h2>")
        .append(Xml.escape(section.title())).append("</h2>");
    section.paragraphs().forEach(p -> paragraph(html, p));
    if (section.table() != null) {
      table(html, "table-" + section.id(), section.table());
    }
    for (BarChart chart : section.charts()) {
      html.append("<figure>").append(chart.svg()).append("<figcaption>")
          .append(Xml.escape(chart.caption())).append("</figcaption></figure>");
    }
    html.append("</section>");
  }

  private static void paragraph(StringBuilder html, String markdown) {
    html.append("<p>").append(BOLD.matcher(Xml.escape(markdown)).replaceAll("<strong>$1</strong>"))
        .append("</p>");
  }

  private static void table(StringBuilder html, String id, Table table) {
    html.append("<div class=\"table-wrap\"><table id=\"").append(Xml.escape(id))
        .append("\"><thead><tr>");
    for (int c = 0; c < table.header().size(); c++) {
      html.append(table.numeric(c) ? "<th class=\"number\">" : "<th>")
          .append(Xml.escape(table.header().get(c))).append("</th>");
    }
    html.append("</tr></thead><tbody>");
    for (List<Cell> row : table.rows()) {
      html.append("<tr>");
      for (Cell cell : row) {
        html.append("<td class=\"")
            .append(cell.style().name().toLowerCase(Locale.ROOT).replace('_', '-')).append("\">")
            .append(Xml.escape(cell.text()));
        if (!cell.detail().isEmpty()) {
          html.append("<span class=\"detail\">").append(Xml.escape(cell.detail()))
              .append("</span>");
        }
        html.append("</td>");
      }
      html.append("</tr>");
    }
    html.append("</tbody></table></div>");
  }
}
