package org.mpcache.master.status;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.apache.hadoop.http.HtmlQuoting;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.master.arbitrator.RecentEvictions.Eviction;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.SlaveUsage;

/**
 * Renders a {@link MasterStatus} as the status page's HTML: plain tables, a little inline CSS,
 * no script; it reloads itself. Every value from the cluster is escaped (a path may hold
 * {@code <}).
 */
final class StatusHtml {
  /** Seconds between reloads. */
  static final int REFRESH_SECONDS = 10;
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());
  private static final String STYLE = "body{font-family:sans-serif;margin:1em}"
      + "table{border-collapse:collapse;margin-bottom:1.5em}"
      + "th,td{border:1px solid #ccc;padding:.2em .6em}th{background:#eee;text-align:left}"
      + "td.n{text-align:right}tr:nth-child(even){background:#f8f8f8}";

  /** A number, maybe with a unit (12, 1.5 MB, 50.0 %, 2.0 s ago): right-aligned. */
  private static final Pattern FIGURE = Pattern.compile("[0-9][0-9.]*( [%A-Za-z ]+)?");

  private final StringBuilder html = new StringBuilder();

  private StatusHtml() {
  }

  static String render(MasterStatus status, String viewer) {
    return new StatusHtml().page(status, viewer);
  }

  private String page(MasterStatus status, String viewer) {
    html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
        .append("<title>mpCache master</title><style>").append(STYLE).append("</style>")
        .append("</head><body>\n<h1>mpCache master</h1>\n");
    if (!status.available()) {
      html.append("<p class=\"state\">").append(escape(status.state())).append("</p>\n");
    } else {
      html.append("<p class=\"state\">").append(escape(status.state())).append(", policy ")
          .append(escape(status.policy())).append(", ").append(status.nodes().size())
          .append(" slaves, ").append(status.cachedDataSets())
          .append(" data sets cached</p>\n");
      nodes(status.nodes());
      if (status.pathsShown()) {
        dataSets(status.dataSets());
      } else {
        html.append("<p class=\"hidden\">Data-set paths are shown to HDFS superusers only (you"
            + " are ").append(escape(viewer)).append(").</p>\n");
      }
      evictions(status.evictions());
    }
    return html.append("</body></html>\n").toString();
  }

  private void nodes(List<NodeReport> nodes) {
    html.append("<h2>Nodes</h2>\n<table id=\"nodes\">");
    row("th", "Node", "Capacity", "Input", "Pool", "Localized", "Localized share", "Hit ratio",
        "Hits", "Misses", "From SSD", "From HDD", "Last heard", "To evict", "State");
    for (NodeReport node : nodes) {
      SlaveUsage usage = node.usage();
      row("td", node.hostname(), size(usage.capacityBytes()), size(usage.inputBytes()),
          size(usage.poolBytes()), size(usage.localizedBytes()),
          percent(usage.localizedBytes(), usage.capacityBytes()),
          String.format(Locale.ROOT, "%.1f %%", 100 * usage.hitRatio()), "" + usage.hits(),
          "" + usage.misses(), size(usage.bytesFromSsd()), size(usage.bytesFromHdd()),
          String.format(Locale.ROOT, "%.1f s ago", node.lastHeartbeatMillisAgo() / 1000.0),
          "" + node.pendingEvictions(), usage.state());
    }
    html.append("</table>\n");
  }

  private void dataSets(List<DataSetReport> dataSets) {
    html.append("<h2>Cached data sets</h2>\n<table id=\"datasets\">");
    row("th", "Data set", "Blocks", "Cached", "Cached share", "Priority", "Pinned", "TTL",
        "Nodes");
    for (DataSetReport dataSet : dataSets) {
      row("td", dataSet.path(), "" + dataSet.totalBlocks(), "" + dataSet.cachedBlocks(),
          percent(dataSet.cachedBlocks(), dataSet.totalBlocks()),
          Double.isNaN(dataSet.priority()) ? "-"
              : String.format(Locale.ROOT, "%.3g", dataSet.priority()),
          dataSet.pinned() ? "yes" : "no",
          dataSet.ttlMillis() == 0 ? "none" : StringUtils.formatTime(dataSet.ttlMillis()),
          String.join(" ", dataSet.hostnames()));
    }
    html.append("</table>\n");
  }

  private void evictions(List<Eviction> evictions) {
    html.append("<h2>Recent evictions</h2>\n<table id=\"evictions\">");
    row("th", "Time", "Data set", "Nodes", "Copies", "Cause");
    for (Eviction eviction : evictions) {
      row("td", TIME.format(Instant.ofEpochMilli(eviction.atMillis())),
          eviction.dataSet() == null ? "(hidden)" : eviction.dataSet(), "" + eviction.nodes(),
          "" + eviction.copies(), eviction.cause().description());
    }
    html.append("</table>\n");
  }

  /** A table row of escaped cells. */
  private void row(String cell, String... values) {
    html.append("\n<tr>");
    for (String value : values) {
      boolean figure = FIGURE.matcher(value).matches();
      html.append('<').append(cell).append(figure && cell.equals("td") ? " class=\"n\">" : ">")
          .append(escape(value)).append("</").append(cell).append('>');
    }
    html.append("</tr>");
  }

  private static String escape(String text) {
    return HtmlQuoting.quoteHtmlChars(text);
  }

  private static String size(long bytes) {
    return StringUtils.byteDesc(bytes);
  }

  private static String percent(long part, long whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f %%", 100.0 * part / whole);
  }
}
