package org.mpcache.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;

import org.mpcache.conf.MasterSettings;
import org.mpcache.master.Namespace.DataSetRef;
import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.DataSetPasses;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MasterReport.DataSetReport;
import org.mpcache.protocol.MasterReport.NodeReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.Registration;
import org.mpcache.protocol.SlaveUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache master (seeds/000 §3.1): the Replace Arbitrator's policy fed by the slaves'
 * registrations, heartbeats and admission requests, data sets resolved through the namespace,
 * and the Dynamic Space Manager's records. One lock; every call is short and in memory (the
 * namespace lock is taken once per batch of blocks, inside this one).
 *
 * <p>It starts recovering: it adopts what the slaves register and makes no decision until every
 * live DataNode's slave has registered or the recovery timeout has passed, so a restarted master
 * never decides on a partial picture. A slave it does not know is told to register again.
 */
public final class CacheMaster implements MpCacheMasterProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(CacheMaster.class);
  private static final long[] NONE = new long[0];

  private final ReplacementPolicy policy;
  private final Namespace namespace;
  private final MasterSettings settings;
  private final LongSupplier clock;
  private final long recoveryDeadline;
  private final DataSetPasses passes = new DataSetPasses();
  private final SpaceManager space;
  /** Policy node numbers, kept for a DataNode across its re-registrations. */
  private final Map<String, Integer> nodeNumbers = new HashMap<>();
  /** Registered slaves, least recently heard from first (expiry looks at the head only). */
  private final Map<String, Slave> slaves = new LinkedHashMap<>();
  private final Map<Long, Integer> dataSetIds = new HashMap<>();
  private final List<String> dataSetPaths = new ArrayList<>();
  private final List<Integer> dataSetSizes = new ArrayList<>();
  private boolean recovering = true;
  private final MasterCounter.Values counters;
  /** Why the policy is deciding now, for the log line of each data set it evicts. */
  private String deciding = "";

  private static final class Slave {
    final String uuid;
    final int node;
    String hostname;
    long lastHeard;
    /** Condemned copies it registered with again: deleted on its next heartbeat. */
    long[] evictNext = NONE;

    Slave(String uuid, int node) {
      this.uuid = uuid;
      this.node = node;
    }
  }

  /** {@code counters} outlive this master: the plugin publishes them across failovers. */
  public CacheMaster(MasterSettings settings, Namespace namespace, LongSupplier clock,
      MasterCounter.Values counters) {
    this.settings = settings;
    this.counters = counters;
    this.policy = ReplacementPolicies.create(settings.policy(), settings.fullBonus(),
        settings.backToBackDistance());
    policy.setEvictionListener((dataSetId, priority, copies) -> {
      counters.add(MasterCounter.DATA_SETS_EVICTED, 1);
      LOG.info("mpCache master: evicting data set {} (priority {}, {} copies on all nodes): {}",
          dataSetPaths.get(dataSetId), priority, copies, deciding);
    });
    this.namespace = namespace;
    this.clock = clock;
    this.recoveryDeadline = clock.getAsLong() + settings.recoveryMillis();
    this.space = new SpaceManager(settings.historySize());
  }

  @Override
  public synchronized Registration register(String datanodeUuid, String hostname,
      SlaveUsage usage, long[] cachedBlocks) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    Set<Long> condemned = new HashSet<>();
    if (slave == null) {
      slave = new Slave(datanodeUuid,
          nodeNumbers.computeIfAbsent(datanodeUuid, uuid -> nodeNumbers.size()));
    } else {
      for (long block : policy.forgetNode(slave.node)) {
        condemned.add(block);
      }
    }
    slave.hostname = hostname;
    heardFrom(slave, usage);
    long[] adopted = Arrays.stream(cachedBlocks).filter(b -> !condemned.contains(b)).toArray();
    slave.evictNext = Arrays.stream(cachedBlocks).filter(condemned::contains).toArray();
    restore(slave.node, adopted);
    LOG.info("mpCache master: slave {} ({}) registered with {} cached blocks", hostname,
        datanodeUuid, cachedBlocks.length);
    endRecoveryIfReady();
    return new Registration(namespace.blockPoolId(), namespace.blockSizeBytes());
  }

  @Override
  public synchronized HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage,
      long[] hits, long[] misses, long[] cached, long[] removed) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    if (slave == null) {
      return HeartbeatAnswer.REREGISTER;
    }
    heardFrom(slave, usage);
    for (long block : removed) {
      policy.removed(slave.node, block);
    }
    restore(slave.node, cached);
    countHits(slave, hits);
    DataSetRef[] missSets = namespace.dataSetsOf(misses);
    for (int i = 0; i < misses.length; i++) {
      DataSet dataSet = dataSet(missSets[i]);
      if (dataSet != null) {
        noteRead(dataSet, misses[i]);
      }
    }
    endRecoveryIfReady();
    long[] shrunk = shrink(slave, usage);
    long[] elsewhere = policy.drainPendingEvictions(slave.node);
    evicting(slave, slave.evictNext, MasterCounter.EVICTIONS_AFTER_REREGISTRATION);
    evicting(slave, shrunk, MasterCounter.EVICTIONS_FOR_LOCALIZED_DATA);
    evicting(slave, elsewhere, MasterCounter.EVICTIONS_OF_DATA_SETS_ELSEWHERE);
    long[] evict = LongStream.concat(LongStream.concat(Arrays.stream(slave.evictNext),
        Arrays.stream(shrunk)), Arrays.stream(elsewhere)).toArray();
    slave.evictNext = NONE;
    return HeartbeatAnswer.evict(evict);
  }

  @Override
  public synchronized AdmissionAnswer requestAdmission(String datanodeUuid, long blockId,
      long bytes, long[] hits) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    if (slave == null) {
      return AdmissionAnswer.REREGISTER;
    }
    countHits(slave, hits);
    endRecoveryIfReady();
    if (recovering) {
      return AdmissionAnswer.RECOVERING;
    }
    if (namespace.leavingService(datanodeUuid)) {
      return AdmissionAnswer.REJECT; // its blocks are moving elsewhere; so is its work
    }
    DataSet dataSet = dataSet(namespace.dataSetsOf(new long[] {blockId})[0]);
    if (dataSet == null) {
      return AdmissionAnswer.REJECT;
    }
    noteRead(dataSet, blockId);
    deciding = "room for block " + blockId + " of " + dataSetPaths.get(dataSet.id()) + " on "
        + slave.hostname;
    CacheDecision decision = policy.access(slave.node, blockId, dataSet);
    if (decision.hit()) {
      return AdmissionAnswer.admit(NONE); // it lost the copy without telling yet: keep one
    }
    if (!decision.admitted()) {
      counters.add(MasterCounter.ADMISSIONS_REFUSED, 1);
      return AdmissionAnswer.REJECT;
    }
    counters.add(MasterCounter.ADMISSIONS_ADMITTED, 1);
    evicting(slave, decision.evict(), MasterCounter.EVICTIONS_FOR_ROOM);
    return AdmissionAnswer.admit(decision.evict());
  }

  @Override
  public synchronized MasterReport report() {
    expireSilentSlaves();
    endRecoveryIfReady();
    long now = clock.getAsLong();
    Map<Integer, Slave> byNode = new HashMap<>();
    slaves.values().forEach(slave -> byNode.put(slave.node, slave));
    Map<Integer, Integer> copiesPerNode = new HashMap<>();
    Map<Integer, Set<Long>> blocksPerDataSet = new HashMap<>();
    Map<Integer, Set<String>> hostsPerDataSet = new HashMap<>();
    policy.forEachCached((node, block, dataSetId) -> {
      copiesPerNode.merge(node, 1, Integer::sum);
      blocksPerDataSet.computeIfAbsent(dataSetId, id -> new HashSet<>()).add(block);
      Slave slave = byNode.get(node);
      if (slave != null) {
        hostsPerDataSet.computeIfAbsent(dataSetId, id -> new TreeSet<>()).add(slave.hostname);
      }
    });
    List<NodeReport> nodes = slaves.values().stream()
        .sorted(Comparator.comparing((Slave s) -> s.hostname))
        .map(slave -> new NodeReport(slave.uuid, slave.hostname, space.usage(slave.uuid),
            now - slave.lastHeard,
            policy.usedBlocks(slave.node) - copiesPerNode.getOrDefault(slave.node, 0)))
        .toList();
    List<DataSetReport> dataSets = blocksPerDataSet.entrySet().stream()
        .map(e -> new DataSetReport(dataSetPaths.get(e.getKey()), policy.priority(e.getKey()),
            e.getValue().size(), dataSetSizes.get(e.getKey()),
            List.copyOf(hostsPerDataSet.getOrDefault(e.getKey(), Set.of()))))
        .sorted(Comparator.comparingDouble((DataSetReport d) -> Double.isNaN(d.priority())
                ? Double.NEGATIVE_INFINITY : d.priority()).reversed()
            .thenComparing(DataSetReport::path))
        .toList();
    return new MasterReport(recovering ? "recovering" : "active", policy.name(), nodes,
        dataSets, space.history(now));
  }

  @Override
  public synchronized List<List<String>> cachedOn(long[] blockIds) {
    expireSilentSlaves();
    List<List<String>> holders = new ArrayList<>(blockIds.length);
    List<Slave> serving = slaves.values().stream()
        .filter(slave -> !namespace.leavingService(slave.uuid)).toList();
    for (long block : blockIds) {
      holders.add(serving.stream().filter(slave -> policy.isCached(slave.node, block))
          .map(slave -> slave.uuid).toList());
    }
    return holders;
  }

  /** True until the master has the whole picture and makes decisions. */
  public synchronized boolean recovering() {
    endRecoveryIfReady();
    return recovering;
  }

  /**
   * The slave holds more input data than its capacity (its tuner lent SSD room to localized
   * data): the policy frees the blocks' worth of the excess through its scheme.
   */
  private long[] shrink(Slave slave, SlaveUsage usage) {
    long excess = usage.inputBytes() - usage.capacityBytes();
    if (excess <= 0) {
      return NONE;
    }
    int blocks = (int) Math.min(Integer.MAX_VALUE,
        (excess + namespace.blockSizeBytes() - 1) / namespace.blockSizeBytes());
    deciding = "room on " + slave.hostname + " lent to localized data";
    long[] evict = policy.evictFrom(slave.node, blocks);
    LOG.info("mpCache master: slave {} holds {} bytes of input data over its capacity (room "
        + "lent to localized data): evicting {} of its blocks", slave.hostname, excess,
        evict.length);
    return evict;
  }

  /**
   * Counts the slave's hits as the policy's accesses. A hit on a copy the policy does not count
   * on the node (evicted since the read, or never heard of: copies arrive through registrations
   * and heartbeats' cached lists) is a data-set read only, so that no evicted copy comes back.
   */
  private void countHits(Slave slave, long[] hits) {
    DataSetRef[] hitSets = namespace.dataSetsOf(hits);
    for (int i = 0; i < hits.length; i++) {
      DataSet dataSet = dataSet(hitSets[i]);
      if (dataSet != null) {
        noteRead(dataSet, hits[i]);
        if (policy.isCached(slave.node, hits[i])) {
          policy.access(slave.node, hits[i], dataSet);
        }
      }
    }
  }

  /** Counts and logs copies a slave is told to delete, by cause. */
  private void evicting(Slave slave, long[] blocks, MasterCounter cause) {
    if (blocks.length > 0) {
      counters.add(cause, blocks.length);
      LOG.info("mpCache master: {} deletes {} copies ({})", slave.hostname, blocks.length,
          cause.description());
    }
  }

  /** Also moves the slave to the end of {@link #slaves}, which stays ordered by last heard. */
  private void heardFrom(Slave slave, SlaveUsage usage) {
    slave.lastHeard = clock.getAsLong();
    slaves.remove(slave.uuid);
    slaves.put(slave.uuid, slave);
    space.usage(slave.uuid, usage);
    policy.setCapacity(slave.node,
        (int) Math.min(Integer.MAX_VALUE, usage.capacityBytes() / namespace.blockSizeBytes()));
  }

  /** Records copies the slave holds; blocks the namespace no longer has are ignored. */
  private void restore(int node, long[] blocks) {
    DataSetRef[] refs = namespace.dataSetsOf(blocks);
    for (int i = 0; i < blocks.length; i++) {
      DataSet dataSet = dataSet(refs[i]);
      if (dataSet != null) {
        policy.restore(node, blocks[i], dataSet);
      }
    }
  }

  /** A block read: a new pass over its data set counts as a data-set access. */
  private void noteRead(DataSet dataSet, long block) {
    if (passes.read(dataSet, block)) {
      policy.dataSetAccessed(dataSet);
      space.accessed(dataSetPaths.get(dataSet.id()), dataSet.blocks(), clock.getAsLong());
    }
  }

  /** The policy's dense data set for a namespace data set, following renames and resizes. */
  private DataSet dataSet(DataSetRef ref) {
    if (ref == null || ref.blocks() <= 0) {
      return null;
    }
    Integer id = dataSetIds.get(ref.key());
    if (id == null) {
      id = dataSetPaths.size();
      dataSetIds.put(ref.key(), id);
      dataSetPaths.add(ref.path());
      dataSetSizes.add(ref.blocks());
    } else {
      dataSetPaths.set(id, ref.path());
      dataSetSizes.set(id, ref.blocks());
    }
    return new DataSet(id, ref.blocks());
  }

  private void expireSilentSlaves() {
    long now = clock.getAsLong();
    for (var it = slaves.values().iterator(); it.hasNext();) {
      Slave slave = it.next();
      if (now - slave.lastHeard <= settings.expiryMillis()) {
        return; // the rest were heard from later
      }
      LOG.warn("mpCache master: no heartbeat from slave {} ({}) for {} ms; forgetting its copies"
          + " until it registers again", slave.hostname, slave.uuid, now - slave.lastHeard);
      policy.forgetNode(slave.node);
      space.forget(slave.uuid);
      it.remove();
    }
  }

  private void endRecoveryIfReady() {
    if (!recovering) {
      return;
    }
    if (clock.getAsLong() >= recoveryDeadline) {
      recovering = false;
      LOG.warn("mpCache master: recovery timeout ({} ms) passed with {} slaves registered;"
          + " deciding from now on", settings.recoveryMillis(), slaves.size());
      return;
    }
    Set<String> live = namespace.liveDataNodes();
    if (live != null && !live.isEmpty() && slaves.keySet().containsAll(live)) {
      recovering = false;
      LOG.info("mpCache master: all {} live DataNodes' slaves registered; deciding from now on",
          live.size());
    }
  }
}
