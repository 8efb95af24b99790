package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The slaves the master knows, with when each was last heard from. A DataNode keeps its policy
 * node number across re-registrations and expiries, so that what the policy knows of its node
 * stays the same node's.
 */
final class SlaveRegistry {
  private static final long[] NONE = new long[0];

  /** One registered slave. */
  static final class Slave {
    final String uuid;
    final int node;
    String hostname;
    long lastHeard;
    /** Condemned copies it registered with again: deleted on its next heartbeat. */
    long[] evictNext = NONE;

    private Slave(String uuid, int node) {
      this.uuid = uuid;
      this.node = node;
    }
  }

  private final Map<String, Integer> nodeNumbers = new HashMap<>();
  /** Least recently heard from first: expiry looks at the head only. */
  private final Map<String, Slave> slaves = new LinkedHashMap<>();

  /** The registered slave of DataNode {@code uuid}, or null. */
  Slave get(String uuid) {
    return slaves.get(uuid);
  }

  /** A new slave of DataNode {@code uuid}, not registered until {@link #heard}. */
  Slave newSlave(String uuid) {
    return new Slave(uuid, nodeNumbers.computeIfAbsent(uuid, u -> nodeNumbers.size()));
  }

  /** The slave was heard from at {@code now}: registered, and last in expiry order. */
  void heard(Slave slave, long now) {
    slave.lastHeard = now;
    slaves.remove(slave.uuid);
    slaves.put(slave.uuid, slave);
  }

  /** Removes and returns the slaves silent for more than {@code expiryMillis} at {@code now}. */
  List<Slave> expire(long now, long expiryMillis) {
    List<Slave> expired = new ArrayList<>();
    for (var it = slaves.values().iterator(); it.hasNext();) {
      Slave slave = it.next();
      if (now - slave.lastHeard <= expiryMillis) {
        break; // the rest were heard from later
      }
      expired.add(slave);
      it.remove();
    }
    return expired;
  }

  Collection<Slave> all() {
    return Collections.unmodifiableCollection(slaves.values());
  }

  Set<String> uuids() {
    return Collections.unmodifiableSet(slaves.keySet());
  }
}
