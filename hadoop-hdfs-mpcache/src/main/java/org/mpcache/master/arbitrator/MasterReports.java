package org.mpcache.master.arbitrator;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.mpcache.master.arbitrator.SlaveRegistry.Slave;
import org.mpcache.master.spacemanager.SpaceManager;
import org.mpcache.policy.ReplacementPolicy;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MasterReport;

/** Builds {@code hdfs mpcacheadmin}'s picture of the cache from the master's tables. */
final class MasterReports {
  private MasterReports() {
  }

  static MasterReport build(String state, ReplacementPolicy policy, Collection<Slave> slaves,
      DataSetTable dataSets, SpaceManager space, long now) {
    Map<Integer, Slave> byNode = new HashMap<>();
    slaves.forEach(slave -> byNode.put(slave.node, slave));
    Map<Integer, Set<Long>> blocksPerDataSet = new HashMap<>();
    Map<Integer, Set<String>> hostsPerDataSet = new HashMap<>();
    policy.forEachCached((node, block, dataSetId) -> {
      blocksPerDataSet.computeIfAbsent(dataSetId, id -> new HashSet<>()).add(block);
      Slave slave = byNode.get(node);
      if (slave != null) {
        hostsPerDataSet.computeIfAbsent(dataSetId, id -> new TreeSet<>()).add(slave.hostname);
      }
    });
    List<NodeReport> nodes = slaves.stream()
        .sorted(Comparator.comparing((Slave s) -> s.hostname))
        .map(slave -> new NodeReport(slave.uuid, slave.hostname, space.usage(slave.uuid),
            now - slave.lastHeard, policy.pendingEvictions(slave.node)))
        .toList();
    List<DataSetReport> cached = blocksPerDataSet.entrySet().stream()
        .map(e -> {
          DataSetTable.Entry dataSet = dataSets.get(e.getKey());
          return new DataSetReport(dataSet.path(), policy.priority(e.getKey()),
              e.getValue().size(), dataSet.blocks(),
              List.copyOf(hostsPerDataSet.getOrDefault(e.getKey(), Set.of())),
              dataSet.control().pinned(), dataSet.control().ttlMillis());
        })
        .sorted(Comparator.comparingDouble((DataSetReport d) -> Double.isNaN(d.priority())
                ? Double.NEGATIVE_INFINITY : d.priority()).reversed()
            .thenComparing(DataSetReport::path))
        .toList();
    return new MasterReport(state, policy.name(), nodes, cached, space.history(now));
  }
}
