package org.mpcache.master.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.master.MpCacheMasterPlugin;

/**
 * The cache master's status page, {@code /mpcache} on the NameNode's web server
 * (docs/operations.md, "Observe"): HTML, or JSON with {@code ?format=json}. The viewer is found
 * as the NameNode's own servlets find theirs (the SPNEGO user under Kerberos, {@code user.name}
 * or the static web user under simple authentication); only HDFS superusers see data-set paths
 * (docs/security.md).
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  static final String PATH = "/mpcache";
  /** Where the servlet finds the master, in the web server's context. */
  private static final String PLUGIN_ATTRIBUTE = "mpcache.master.plugin";

  /** Serves the page of {@code plugin} on {@code server}, behind its authentication filter. */
  public static void register(HttpServer2 server, MpCacheMasterPlugin plugin) {
    server.setAttribute(PLUGIN_ATTRIBUTE, plugin);
    server.addInternalServlet("mpcache", PATH, StatusServlet.class, true);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    ServletContext context = getServletContext();
    MpCacheMasterPlugin plugin = (MpCacheMasterPlugin) context.getAttribute(PLUGIN_ATTRIBUTE);
    Configuration conf = (Configuration) context.getAttribute(JspHelper.CURRENT_CONF);
    UserGroupInformation viewer = JspHelper.getUGI(context, request, conf);
    MasterStatus status = plugin.status(viewer);
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.setHeader("Cache-Control", "no-store");
    if ("json".equals(request.getParameter("format"))) {
      response.setContentType("application/json");
      new ObjectMapper().writerWithDefaultPrettyPrinter()
          .writeValue(response.getWriter(), status);
    } else {
      response.setContentType("text/html");
      response.getWriter().write(StatusHtml.render(status, viewer.getShortUserName()));
    }
  }
}
