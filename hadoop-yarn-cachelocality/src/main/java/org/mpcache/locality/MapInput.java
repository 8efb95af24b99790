package org.mpcache.locality;

import java.util.List;
import java.util.Set;

/**
 * Where a map task's input block is now: the hosts of all its replicas and those of them that
 * hold it on SSD.
 */
public record MapInput(List<String> replicaHosts, Set<String> ssdHosts) {
  /** Where a map task ran, seen from its input. */
  public enum Placement {
    /** On a host holding the block on SSD. */
    CACHE_LOCAL,
    /** On another host with a replica (on HDD). */
    REPLICA_LOCAL,
    /** Elsewhere. */
    REMOTE
  }

  public MapInput {
    replicaHosts = List.copyOf(replicaHosts);
    ssdHosts = Set.copyOf(ssdHosts);
  }

  public boolean onSsd() {
    return !ssdHosts.isEmpty();
  }

  public Placement placementOn(String host) {
    if (ssdHosts.contains(host)) {
      return Placement.CACHE_LOCAL;
    }
    return replicaHosts.contains(host) ? Placement.REPLICA_LOCAL : Placement.REMOTE;
  }
}
