package org.mpcache.master.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.master.MasterCalls;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.slave.inputcache.CacheTestCluster;
import org.mpcache.tools.FreePorts;

/**
 * The status page on the NameNode's web server (docs/operations.md, "Observe"), fetched as a
 * browser would: two DataNodes cache a data set whose path needs escaping, an admin frees
 * another; a superuser sees both, anyone else the nodes only.
 */
@Timeout(120)
class TestStatusPage {
  private static final int NODES = 2;
  private static final String CACHED = "/in<put>";
  private static final String FREED = "/freed";
  private static final Pattern ROW = Pattern.compile("<tr><td>(.*?)</td>(.*?)</tr>");

  private CacheTestCluster cluster;
  private Configuration conf;
  private String superuser;

  @BeforeEach
  void start() throws Exception {
    InetSocketAddress masterAddress =
        new InetSocketAddress("127.0.0.1", FreePorts.outsideEphemeralRange());
    conf = CacheTestCluster.confWithMaster(masterAddress);
    cluster = CacheTestCluster.start("status-page", conf, NODES, null);
    cluster.waitMasterActive(conf, masterAddress);
    superuser = UserGroupInformation.getCurrentUser().getShortUserName(); // the NameNode's user
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A block of directory {@code dir} on each DataNode, read so that it is cached. */
  private void readDataSet(String dir) throws Exception {
    for (int node = 0; node < NODES; node++) {
      Path file = new Path(dir, "part-" + node);
      cluster.writeOn(file, CacheTestCluster.BLOCK_SIZE, dir.hashCode() + node, node);
      cluster.read(file);
    }
    cluster.waitFillsEnded();
    cluster.heartbeatAll();
  }

  private String page(String user, String query) throws IOException {
    URL url = new URL("http://" + NetUtils.getHostPortString(
        cluster.mini().getNameNode().getHttpAddress()) + StatusServlet.PATH + "?user.name="
        + URLEncoder.encode(user, StandardCharsets.UTF_8) + query);
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    try (InputStream body = connection.getInputStream()) {
      assertEquals(200, connection.getResponseCode());
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  /** The first cells of the table's rows, header excluded. */
  private static List<String> firstCells(String html, String table) {
    int start = html.indexOf("<table id=\"" + table + "\">");
    assertTrue(start >= 0, "no table " + table + " in " + html);
    Matcher rows = ROW.matcher(html.substring(start, html.indexOf("</table>", start)));
    List<String> cells = new ArrayList<>();
    while (rows.find()) {
      cells.add(rows.group(1));
    }
    return cells;
  }

  private static String rowOf(String html, String firstCell) {
    Matcher row = Pattern.compile("<tr><td>" + Pattern.quote(firstCell) + "</td>.*?</tr>")
        .matcher(html);
    assertTrue(row.find(), "no row " + firstCell + " in " + html);
    return row.group();
  }

  @Test
  void showsNodesDataSetsAndEvictionsWithPathsToSuperusersOnly() throws Exception {
    readDataSet(FREED);
    MasterCalls.admin(conf, 0, "-free", FREED + "/part-0");
    readDataSet(CACHED);
    GenericTestUtils.waitFor(() -> {
      try {
        return page(superuser, "").contains("/in&lt;put&gt;");
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }, 100, 20_000);

    String html = page(superuser, "");
    assertTrue(html.contains("<meta http-equiv=\"refresh\" content=\"10\">"), html);
    List<String> hostnames = new ArrayList<>();
    for (DataNode dataNode : cluster.mini().getDataNodes()) {
      hostnames.add(dataNode.getDisplayName());
    }
    assertEquals(hostnames.stream().sorted().toList(), firstCells(html, "nodes"));
    assertEquals(List.of("/in&lt;put&gt;"), firstCells(html, "datasets"));
    String cached = rowOf(html, "/in&lt;put&gt;");
    assertTrue(cached.contains("<td class=\"n\">2</td><td class=\"n\">2</td>"
        + "<td class=\"n\">100.0 %</td>"), "2 of 2 blocks cached: " + cached);
    assertTrue(html.matches("(?s).*<td>" + FREED + "</td><td class=\"n\">2</td>"
        + "<td class=\"n\">2</td><td>" + Pattern.quote(
            MasterCounter.EVICTIONS_BY_ADMIN.description()) + "</td>.*"),
        "the freed data set, 2 copies on 2 nodes: " + html);

    String others = page("someoneelse", "");
    assertEquals(hostnames.stream().sorted().toList(), firstCells(others, "nodes"));
    assertFalse(others.contains("in&lt;put"), others);
    assertFalse(others.contains(FREED), others);
    assertTrue(others.contains("Data-set paths are shown to HDFS superusers only"), others);

    ObjectMapper json = new ObjectMapper();
    JsonNode status = json.readTree(page(superuser, "&format=json"));
    assertEquals("active", status.get("state").asText());
    assertEquals(NODES, status.get("nodes").size());
    assertEquals(CACHED, status.get("dataSets").get(0).get("path").asText());
    assertEquals(2, status.get("dataSets").get(0).get("cachedBlocks").asInt());
    assertEquals(FREED, status.get("evictions").get(0).get("dataSet").asText());
    JsonNode hidden = json.readTree(page("someoneelse", "&format=json"));
    assertEquals(NODES, hidden.get("nodes").size());
    assertEquals(1, hidden.get("cachedDataSets").asInt());
    assertEquals(0, hidden.get("dataSets").size());
    assertTrue(hidden.get("evictions").get(0).get("dataSet").isNull());
    assertFalse(hidden.get("pathsShown").asBoolean());
  }

  @Test
  void aMasterSwitchedOffIsOneLine() throws Exception {
    MasterCalls.admin(conf, 0, "-master", "off");
    String html = page(superuser, "");
    assertTrue(html.contains("<p class=\"state\">mpCache master on "), html);
    assertTrue(html.contains("switched off"), html);
    assertFalse(html.contains("<table"), html);
  }
}
