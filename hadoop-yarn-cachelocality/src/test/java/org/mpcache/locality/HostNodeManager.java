package org.mpcache.locality;

import java.io.File;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * A NodeManager that registers as a host of its own ({@link LoopbackHosts}) beside a
 * MiniYARNCluster's ResourceManager, which names every NodeManager it starts localhost. Shared
 * with mpcache-bench through this module's test jar.
 */
public final class HostNodeManager {
  private HostNodeManager() {
  }

  /**
   * @param yarnConf the running mini cluster's settings (ResourceManager addresses, aux services)
   */
  public static NodeManager start(Configuration yarnConf, String host, List<File> localDirs,
      File logDir, int memoryMb) {
    YarnConfiguration conf = new YarnConfiguration(yarnConf);
    // The node's name is the host of its address when a bind host is set.
    conf.set(YarnConfiguration.NM_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.NM_BIND_HOST, "0.0.0.0");
    conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
    WebAppUtils.setNMWebAppHostNameAndPort(conf, host, 0);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS,
        localDirs.stream().map(File::getAbsolutePath).collect(Collectors.joining(",")));
    conf.set(YarnConfiguration.NM_LOG_DIRS, logDir.getAbsolutePath());
    conf.setInt(YarnConfiguration.NM_PMEM_MB, memoryMb);
    conf.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
    conf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
    NodeManager nodeManager = new NodeManager();
    nodeManager.init(conf);
    nodeManager.start();
    return nodeManager;
  }
}
