package org.mpcache.master.status;

import java.util.List;

import org.mpcache.master.arbitrator.RecentEvictions.Eviction;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MasterReport;

/**
 * What the status page shows ({@link StatusServlet}): the master's report and its recent
 * evictions, or one line saying why there is no master to report (policy null).
 *
 * @param state "active" or "recovering"; else why no master answers (standby, switched off)
 * @param cachedDataSets how many data sets hold copies, also where their paths are not shown
 * @param dataSets empty where paths are not shown
 * @param evictions without their data sets where paths are not shown
 */
public record MasterStatus(String state, String policy, List<NodeReport> nodes, int cachedDataSets,
    List<DataSetReport> dataSets, List<Eviction> evictions, boolean pathsShown) {

  static MasterStatus of(MasterReport report, List<Eviction> evictions) {
    return new MasterStatus(report.state(), report.policy(), report.nodes(),
        report.dataSets().size(), report.dataSets(), evictions, true);
  }

  public static MasterStatus unavailable(String why) {
    return new MasterStatus(why, null, List.of(), 0, List.of(), List.of(), false);
  }

  boolean available() {
    return policy != null;
  }

  /** As seen by someone who is not an HDFS superuser (docs/security.md). */
  public MasterStatus withoutPaths() {
    return new MasterStatus(state, policy, nodes, cachedDataSets, List.of(),
        evictions.stream().map(Eviction::withoutDataSet).toList(), false);
  }
}
