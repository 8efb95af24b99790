package org.mpcache.master.status;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.master.arbitrator.RecentEvictions.Eviction;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.SlaveUsage;

/** The page's HTML, from a status made by hand: escaped, and without paths where hidden. */
class TestStatusHtml {
  private static final String PATH = "/in<script>&";
  private static final MasterStatus STATUS = MasterStatus.of(
      new MasterReport("active", "wholeset",
          List.of(new NodeReport("uuid", "dn<1>", new SlaveUsage(100, 50, 0, 25, 3, 1, 2, "ok",
              0, 0), 500, 0)),
          List.of(new DataSetReport(PATH, 0.5, 2, 4, List.of("dn<1>"), true, 60_000)),
          List.of()),
      List.of(new Eviction(0, PATH, 1, 2, MasterCounter.EVICTIONS_BY_ADMIN)));

  @Test
  void everyValueIsEscaped() {
    String html = StatusHtml.render(STATUS, "hdfs");
    assertFalse(html.contains("<script>"), html);
    assertTrue(html.contains("/in&lt;script&gt;&amp;"), html);
    assertTrue(html.contains("dn&lt;1&gt;"), html);
    assertTrue(html.contains("<td class=\"n\">50.0 %</td>"), "cached share: " + html);
    assertTrue(html.contains("<td class=\"n\">25.0 %</td>"), "localized share: " + html);
    assertTrue(html.contains("<td class=\"n\">75.0 %</td>"), "hit ratio: " + html);
  }

  @Test
  void hiddenPathsAreNotRendered() {
    String html = StatusHtml.render(STATUS.withoutPaths(), "someone<else>");
    assertFalse(html.contains("/in&lt;"), html);
    assertFalse(html.contains("id=\"datasets\""), html);
    assertTrue(html.contains("shown to HDFS superusers only (you are someone&lt;else&gt;)"), html);
    assertTrue(html.contains("<td>(hidden)</td>"), html);
  }

  @Test
  void noMasterIsOneLine() {
    String html = StatusHtml.render(MasterStatus.unavailable("mpCache master is <off>"), "hdfs");
    assertTrue(html.contains("<p class=\"state\">mpCache master is &lt;off&gt;</p>"), html);
    assertFalse(html.contains("<table"), html);
  }
}
