package org.mpcache.master.arbitrator;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

import org.mpcache.conf.MasterSettings;
import org.mpcache.master.arbitrator.SlaveRegistry.Slave;
import org.mpcache.master.namespace.Namespace;
import org.mpcache.master.namespace.Namespace.BlockReplicas;
import org.mpcache.master.namespace.Namespace.DataSetRef;
import org.mpcache.master.spacemanager.SpaceManager;
import org.mpcache.policy.ControlledPolicy;
import org.mpcache.policy.DataSet;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.SlaveUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What admins steer on data sets (docs/operations.md, "Steering the cache"): pins and TTLs set
 * on their paths, frees, and loads queued for slaves and handed out in heartbeats, applied to the
 * Replace Arbitrator's policy. Not thread-safe: it runs under the {@link ReplaceArbitrator}'s
 * lock.
 */
final class DataSetSteering {
  private static final Logger LOG = LoggerFactory.getLogger(DataSetSteering.class);
  private static final long[] NONE = new long[0];

  private final ControlledPolicy policy;
  private final Namespace namespace;
  private final SlaveRegistry slaves;
  private final SpaceManager space;
  private final DataSetTable dataSets;
  private final MasterCounter.Values counters;
  private final RecentEvictions recentEvictions;
  private final LongSupplier clock;
  private final LoadQueue loads;
  /** When each data set with a TTL was last read (or first seen), by id. */
  private final Map<Integer, Long> lastReadWithTtl = new HashMap<>();

  DataSetSteering(MasterSettings settings, ControlledPolicy policy, Namespace namespace,
      SlaveRegistry slaves, SpaceManager space, DataSetTable dataSets,
      MasterCounter.Values counters, RecentEvictions recentEvictions, LongSupplier clock) {
    this.policy = policy;
    this.namespace = namespace;
    this.slaves = slaves;
    this.space = space;
    this.dataSets = dataSets;
    this.counters = counters;
    this.recentEvictions = recentEvictions;
    this.clock = clock;
    this.loads = new LoadQueue(settings.loadBlocksInFlight(), settings.expiryMillis(),
        dropped -> counters.add(MasterCounter.LOAD_BLOCKS_DROPPED, dropped));
  }

  /** The keys a refresh may change: the load bound and the slaves' expiry. */
  void reconfigure(MasterSettings next) {
    policy.setPinShare(next.pinShare());
    loads.limits(next.loadBlocksInFlight(), next.expiryMillis());
  }

  /**
   * Applies what an admin set on the data set's path since the master last saw it: a pin or
   * unpin takes effect now, and a TTL's clock starts.
   */
  void controlsSeen(DataSetRef ref, DataSet dataSet, long now) {
    boolean pinned = ref.control().pinned();
    if (pinned != policy.isPinned(dataSet.id())) {
      if (pinned) {
        policy.pin(dataSet.id());
      } else {
        policy.unpin(dataSet);
      }
      LOG.info("mpCache master: data set {} is {}", ref.path(), pinned ? "pinned" : "unpinned");
    }
    if (ref.control().ttlMillis() > 0) {
      lastReadWithTtl.putIfAbsent(dataSet.id(), now);
    } else if (!lastReadWithTtl.isEmpty()) { // a lookup per block read: no boxing without TTLs
      lastReadWithTtl.remove(dataSet.id());
    }
  }

  /** A block of the data set was read: its TTL starts again. */
  void read(int dataSetId) {
    lastReadWithTtl.computeIfPresent(dataSetId, (id, then) -> clock.getAsLong());
  }

  /** Drops every copy of the data set: each slave deletes its copies at its next heartbeat. */
  ControlAnswer free(DataSetRef ref, DataSet dataSet) {
    if (dataSet != null) {
      int copies = free(dataSet.id(), ref.path(), MasterCounter.EVICTIONS_BY_ADMIN);
      LOG.info("mpCache master: data set {} freed by an admin: {} copies leave the SSDs",
          ref.path(), copies);
    }
    return answer(ref, dataSet);
  }

  /**
   * Loads the data set: each of its blocks no SSD holds is queued for one serving node holding a
   * replica of it (the one with the fewest loads queued), whose slave is handed it in a heartbeat
   * ({@link LoadQueue}), copies it from its replica and asks admission for it as for a read: the
   * replacement policy decides as ever (a pinned data set is admitted within its share). Blocks
   * no registered slave holds a replica of are left out.
   */
  ControlAnswer load(DataSetRef ref, DataSet dataSet) throws IOException {
    if (dataSet == null) {
      return answer(ref, null); // no blocks
    }
    loads.starting(dataSet.id());
    Set<Long> cached = cachedBlocksOf(dataSet.id());
    int queued = 0;
    int unplaced = 0;
    for (BlockReplicas block : namespace.blocksOf(ref)) {
      if (cached.contains(block.blockId())) {
        continue;
      }
      Slave target = block.datanodeUuids().stream().map(slaves::get).filter(Objects::nonNull)
          .filter(this::mayCopy)
          .min(Comparator.comparingInt(slave -> loads.loadsOn(slave.node))).orElse(null);
      if (target == null) {
        unplaced++;
      } else if (loads.queue(dataSet.id(), block.blockId(), target.node)) {
        queued++;
      }
    }
    LOG.info("mpCache master: loading data set {}: {} blocks queued, {} left out (no node in"
        + " service with a cache slave and room holds a replica)", ref.path(), queued, unplaced);
    return answer(ref, dataSet);
  }

  /** A load's block may go to the slave: it has a cache of a block at least, and is in service. */
  private boolean mayCopy(Slave slave) {
    SlaveUsage usage = space.usage(slave.uuid);
    return usage != null && usage.capacityBytes() >= namespace.blockSizeBytes()
        && !namespace.leavingService(slave.uuid);
  }

  /** The blocks of data set {@code dataSetId} with a copy on some SSD: walks every copy. */
  private Set<Long> cachedBlocksOf(int dataSetId) {
    Set<Long> cached = new HashSet<>();
    policy.forEachCached((node, block, id) -> {
      if (id == dataSetId) {
        cached.add(block);
      }
    });
    return cached;
  }

  /** The data set as it stands: its controls, its copies, its load. */
  ControlAnswer answer(DataSetRef ref, DataSet dataSet) {
    Set<Long> cached = dataSet == null ? Set.of() : cachedBlocksOf(dataSet.id());
    LoadQueue.Progress load = dataSet == null ? LoadQueue.Progress.NONE
        : loads.progress(dataSet.id());
    return new ControlAnswer(ref.path(), ref.control().pinned(), ref.control().ttlMillis(),
        cached.size(), ref.blocks(), load.loading(), load.refused());
  }

  /** The blocks of admins' loads the slave is to copy now; those it holds already are done. */
  long[] handOutLoads(Slave slave) {
    if (namespace.leavingService(slave.uuid)) { // it gets no new copy: its loads are dropped
      loads.forgetNode(slave.node);
      return NONE;
    }
    long[] load = Arrays.stream(loads.handOut(slave.node, clock.getAsLong()))
        .filter(block -> {
          boolean held = policy.isCached(slave.node, block);
          if (held) {
            loads.settled(slave.node, block, false);
          }
          return !held;
        }).toArray();
    counters.add(MasterCounter.LOAD_BLOCKS_HANDED_OUT, load.length);
    return load;
  }

  /** A block a load may have asked for is held, gone, or refused on the node. */
  void settled(int node, long block, boolean refused) {
    loads.settled(node, block, refused);
  }

  /** The node's slave registered anew or fell silent: its loads are dropped. */
  void forgetNode(int node) {
    loads.forgetNode(node);
  }

  /** Frees the data sets unread for longer than their TTL. */
  void expireTtls() {
    long now = clock.getAsLong();
    var expired = lastReadWithTtl.entrySet().iterator();
    while (expired.hasNext()) {
      var read = expired.next();
      DataSetTable.Entry entry = dataSets.get(read.getKey());
      long ttl = entry.control().ttlMillis();
      if (now - read.getValue() > ttl && !policy.isPinned(read.getKey())) { // a pin wins
        expired.remove(); // until it is read again
        int copies = free(read.getKey(), entry.path(), MasterCounter.EVICTIONS_BY_TTL);
        LOG.info("mpCache master: data set {} unread for more than its TTL of {} ms: {} copies"
            + " leave the SSDs", entry.path(), ttl, copies);
      }
    }
  }

  /**
   * Every copy of the data set at {@code path} leaves the SSDs for {@code cause}, and what of it
   * was still to load is not loaded; returns how many copies leave.
   */
  private int free(int dataSetId, String path, MasterCounter cause) {
    loads.cancel(dataSetId);
    ControlledPolicy.Freed freed = policy.free(dataSetId);
    counters.add(cause, freed.copies());
    if (freed.copies() > 0) {
      recentEvictions.record(path, freed.nodes(), freed.copies(), cause);
    }
    return freed.copies();
  }

  /** True while admins steer the data set: pinned, with a TTL, or a load of it under way. */
  boolean steers(int dataSetId) {
    return policy.isPinned(dataSetId) || lastReadWithTtl.containsKey(dataSetId)
        || loads.progress(dataSetId).loading() > 0;
  }

  /** The data set is forgotten: its loads and TTL clock go. */
  void forget(int dataSetId) {
    loads.cancel(dataSetId);
    lastReadWithTtl.remove(dataSetId);
  }
}
