package org.mpcache.locality;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The order a reader tries a block's replicas in: its own node's replica first (local reads
 * beat any network read), then replicas held on SSD, then the rest in the NameNode's order.
 * Pure: the client brings the facts.
 */
public final class ReplicaOrder {
  private ReplicaOrder() {
  }

  /**
   * @param hosts each replica's DataNode host name, in the NameNode's order
   * @param nodes each replica's DataNode UUID, same order
   * @param localHost the reader's host name, or null when unknown
   * @param onSsd UUIDs of the DataNodes holding the block on SSD
   * @return replica indices in reading order
   */
  public static List<Integer> of(List<String> hosts, List<String> nodes, String localHost,
      Set<String> onSsd) {
    List<Integer> local = new ArrayList<>();
    List<Integer> ssd = new ArrayList<>();
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      if (hosts.get(i).equals(localHost)) {
        local.add(i);
      } else if (onSsd.contains(nodes.get(i))) {
        ssd.add(i);
      } else {
        rest.add(i);
      }
    }
    local.addAll(ssd);
    local.addAll(rest);
    return local;
  }
}
