package org.mpcache.master.arbitrator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.hadoop.util.Time;
import org.mpcache.conf.MasterSettings;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.master.arbitrator.SlaveRegistry.Slave;
import org.mpcache.master.namespace.Namespace.BlockOwner;
import org.mpcache.master.namespace.Namespace.DataSetRef;
import org.mpcache.master.namespace.Namespace;
import org.mpcache.master.spacemanager.SpaceManager;
import org.mpcache.policy.CacheDecision;
import org.mpcache.policy.ControlledPolicy;
import org.mpcache.policy.DataSet;
import org.mpcache.policy.DataSetPasses;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy.DataSetEviction;
import org.mpcache.protocol.AdmissionAnswer.Verdict;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.Registration;
import org.mpcache.protocol.SlaveUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Replace Arbitrator of the mpCache paper's master (§3.1): its replacement policy fed by the
 * slaves' registrations, heartbeats and admission requests, data sets resolved through the
 * namespace, and the Dynamic Space Manager's records. One lock; every call is short and in
 * memory (the namespace lock is taken inside this one, in holds of bounded work:
 * NamesystemHolds). The data sets it tracks are capped
 * ({@code dfs.mpcache.master.dataset.max-tracked}).
 *
 * <p>It starts recovering: it adopts what the slaves register and makes no decision until every
 * live DataNode's slave has registered or the recovery timeout has passed ({@link RecoveryGate}),
 * so a restarted master never decides on a partial picture. A slave it does not know
 * ({@link SlaveRegistry}) is told to register again. Data sets get the dense ids the policies
 * index by in {@link DataSetTable}; what admins steer (pins, TTLs, frees, loads) is applied by
 * {@link DataSetSteering}; {@link MasterReports} builds the admin tool's picture. Its
 * methods answer the calls of the same names of {@code MpCacheMasterProtocol}, which the plugin
 * serves after checking the caller.
 */
public final class ReplaceArbitrator {
  private static final Logger LOG = LoggerFactory.getLogger(ReplaceArbitrator.class);
  private static final long[] NONE = new long[0];
  /** Idle data sets forgotten per heartbeat at most, so that no heartbeat takes long. */
  static final int FORGOTTEN_PER_HEARTBEAT = 10_000;

  private final ControlledPolicy policy;
  private final Namespace namespace;
  /** Its keys a refresh may change are read at each use ({@link #reconfigure}). */
  private MasterSettings settings;
  private final LongSupplier clock;
  private final RecoveryGate recovery;
  private final DataSetPasses passes = new DataSetPasses();
  private final SpaceManager space;
  private final SlaveRegistry slaves = new SlaveRegistry();
  private final DataSetTable dataSets = new DataSetTable();
  private final MasterCounter.Values counters;
  private final DataSetSteering steering;
  private final RecentEvictions recentEvictions =
      new RecentEvictions(RecentEvictions.KEPT, Time::now);
  /** Copies each slave dropped for silence was still to delete, by DataNode UUID. */
  private final Map<String, long[]> condemnedWhileSilent = new HashMap<>();
  /** See {@link #gauges()}. */
  private volatile MasterGauges gauges = MasterGauges.NONE;

  /** {@code counters} outlive this master: the plugin publishes them across failovers. */
  public ReplaceArbitrator(MasterSettings settings, Namespace namespace, LongSupplier clock,
      MasterCounter.Values counters) {
    this.settings = settings;
    this.counters = counters;
    this.policy = new ControlledPolicy(ReplacementPolicies.create(settings.policy(),
        settings.fullBonus(), settings.backToBackDistance()), settings.pinShare());
    this.namespace = namespace;
    this.clock = clock;
    this.recovery = new RecoveryGate(clock.getAsLong(), settings.recoveryMillis());
    this.space = new SpaceManager(settings.historySize());
    this.steering = new DataSetSteering(settings, policy, namespace, slaves, space, dataSets,
        counters, recentEvictions, clock);
  }

  /**
   * Counts, records and logs the data sets the policy's last decision evicted whole, for
   * {@code cause}; {@code detail} says for the log what the decision was for.
   */
  private void dataSetsEvicted(MasterCounter cause, Supplier<String> detail) {
    for (DataSetEviction eviction : policy.takeDataSetsEvicted()) {
      counters.add(MasterCounter.DATA_SETS_EVICTED, 1);
      String path = dataSets.get(eviction.dataSetId()).path();
      recentEvictions.record(path, eviction.nodes(), eviction.copies(), cause);
      LOG.info("mpCache master: evicting data set {} (priority {}, {} copies on {} nodes): {}",
          path, eviction.priority(), eviction.copies(), eviction.nodes(), detail.get());
    }
  }

  public synchronized Registration register(String datanodeUuid, String hostname,
      SlaveUsage usage, long[] cachedBlocks) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    Set<Long> condemned = new HashSet<>();
    if (slave == null) {
      slave = slaves.newSlave(datanodeUuid);
      for (long block : condemnedWhileSilent.getOrDefault(datanodeUuid, NONE)) {
        condemned.add(block);
      }
      condemnedWhileSilent.remove(datanodeUuid);
    } else {
      for (long block : policy.forgetNode(slave.node)) {
        condemned.add(block);
      }
      steering.forgetNode(slave.node);
    }
    slave.hostname = hostname;
    heardFrom(slave, usage);
    long[] adopted = Arrays.stream(cachedBlocks).filter(b -> !condemned.contains(b)).toArray();
    slave.evictNext = Arrays.stream(cachedBlocks).filter(condemned::contains).toArray();
    restore(slave.node, adopted);
    LOG.info("mpCache master: slave {} ({}) registered with {} cached blocks", hostname,
        datanodeUuid, cachedBlocks.length);
    recovering();
    return new Registration(namespace.blockPoolId(), namespace.blockSizeBytes());
  }

  public synchronized HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage,
      long[] hits, long[] misses, long[] cached, long[] removed) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    if (slave == null) {
      return HeartbeatAnswer.REREGISTER;
    }
    heardFrom(slave, usage);
    if (LOG.isDebugEnabled() && misses.length + removed.length > 0) {
      // What the policy hears of beside admissions, which log their own decisions.
      LOG.debug("mpCache master: slave {} reports misses {} and copies removed {}",
          slave.hostname, Arrays.toString(misses), Arrays.toString(removed));
    }
    for (long block : removed) {
      policy.removed(slave.node, block);
      steering.settled(slave.node, block, false);
    }
    restore(slave.node, cached);
    for (long block : cached) {
      steering.settled(slave.node, block, false);
    }
    countHits(slave, hits);
    BlockOwner[] missOwners = namespace.ownersOf(misses);
    for (int i = 0; i < misses.length; i++) {
      DataSet dataSet = dataSet(missOwners[i]);
      if (dataSet != null) {
        noteRead(dataSet, misses[i], missOwners[i].startsFile());
      }
    }
    boolean recovering = recovering();
    forgetIdleDataSets();
    steering.expireTtls();
    long[] shrunk = shrink(slave, usage);
    long[] elsewhere = policy.drainPendingEvictions(slave.node);
    long[] freed = policy.drainFreed(slave.node);
    evicting(slave, slave.evictNext, MasterCounter.EVICTIONS_AFTER_REREGISTRATION);
    evicting(slave, shrunk, MasterCounter.EVICTIONS_FOR_LOCALIZED_DATA);
    evicting(slave, elsewhere, MasterCounter.EVICTIONS_OF_DATA_SETS_ELSEWHERE);
    if (freed.length > 0) {
      LOG.info("mpCache master: {} deletes {} copies of freed or expired data sets",
          slave.hostname, freed.length);
    }
    long[] evict = Stream.of(slave.evictNext, shrunk, elsewhere, freed)
        .flatMapToLong(Arrays::stream).toArray();
    slave.evictNext = NONE;
    long[] load = recovering ? NONE : steering.handOutLoads(slave);
    updateGauges();
    return HeartbeatAnswer.of(evict, load);
  }

  /**
   * Takes what a refresh read for the keys the running master reads at each use
   * ({@code MasterKeyEffects.Effect.APPLIED}): slave expiry, idle expiry, pin share, load bound;
   * the include and exclude paths reach the namespace through the plugin.
   */
  public synchronized void reconfigure(MasterSettings next) {
    settings = next;
    steering.reconfigure(next);
  }

  /**
   * The data set an admin names by {@code path} ({@link Namespace#dataSetAt}).
   *
   * @throws IOException naming why when it names none the cache keeps
   */
  public synchronized DataSetRef dataSetAt(String path) throws IOException {
    DataSetRef ref = namespace.dataSetAt(path);
    if (ref == null) {
      throw new IOException("mpCache master: " + path + " is no data set the cache keeps: its"
          + " blocks are not cached (" + MpCacheConfigKeys.DFS_MPCACHE_MASTER_INCLUDE_KEY + ", "
          + MpCacheConfigKeys.DFS_MPCACHE_MASTER_EXCLUDE_KEY + ", Hadoop's staging and log"
          + " dirs), or it is a directory while " + MpCacheConfigKeys.DFS_MPCACHE_MASTER_DATASET_KEY
          + " is file");
    }
    return ref;
  }

  /**
   * Applies what an admin just set on the data set at {@code path} (a pin, a TTL: the plugin
   * wrote it into the namespace, from which it is read again) and returns the data set as it
   * stands.
   */
  public synchronized ControlAnswer controlled(String path) throws IOException {
    DataSetRef ref = dataSetAt(path);
    return steering.answer(ref, dataSet(ref));
  }

  /** Drops every copy of the data set: each slave deletes its copies at its next heartbeat. */
  public synchronized ControlAnswer free(String path) throws IOException {
    DataSetRef ref = dataSetAt(path);
    return steering.free(ref, dataSet(ref));
  }

  /** Loads the data set at {@code path} ({@link DataSetSteering#load}). */
  public synchronized ControlAnswer load(String path) throws IOException {
    if (recovering()) { // its picture of the copies is partial: it would load copies held
      throw new IOException("mpCache master: recovering its state from the slaves'"
          + " registrations; load again once it is active (hdfs mpcacheadmin -report)");
    }
    DataSetRef ref = dataSetAt(path);
    return steering.load(ref, dataSet(ref));
  }

  public synchronized AdmissionAnswer requestAdmission(String datanodeUuid, long blockId,
      long bytes, long[] hits) {
    expireSilentSlaves();
    Slave slave = slaves.get(datanodeUuid);
    if (slave == null) {
      return AdmissionAnswer.REREGISTER;
    }
    AdmissionAnswer answer = admission(slave, blockId, hits);
    steering.settled(slave.node, blockId, answer.verdict() == Verdict.REJECT);
    return answer;
  }

  private AdmissionAnswer admission(Slave slave, long blockId, long[] hits) {
    countHits(slave, hits);
    if (recovering()) {
      return AdmissionAnswer.RECOVERING;
    }
    if (namespace.leavingService(slave.uuid)) {
      return AdmissionAnswer.REJECT; // its blocks are moving elsewhere; so is its work
    }
    BlockOwner owner = namespace.ownersOf(new long[] {blockId})[0];
    DataSet dataSet = dataSet(owner);
    if (dataSet == null) {
      return AdmissionAnswer.REJECT;
    }
    noteRead(dataSet, blockId, owner.startsFile());
    String path = dataSets.get(dataSet.id()).path();
    CacheDecision decision = policy.access(slave.node, blockId, dataSet);
    dataSetsEvicted(MasterCounter.EVICTIONS_FOR_ROOM,
        () -> "room for block " + blockId + " of " + path + " on " + slave.hostname);
    if (decision.hit()) {
      return AdmissionAnswer.admit(NONE); // it lost the copy without telling yet: keep one
    }
    if (!decision.admitted()) {
      LOG.debug("mpCache master: the policy refuses block {} of {} on {}", blockId, path,
          slave.hostname);
      counters.add(MasterCounter.ADMISSIONS_REFUSED, 1);
      if (policy.isPinned(dataSet.id())) {
        counters.add(MasterCounter.PINNED_COPIES_REFUSED, 1);
      }
      return AdmissionAnswer.REJECT;
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("mpCache master: admitting block {} of {} on {}, evicting {} copies there",
          blockId, path, slave.hostname, decision.evict().length);
    }
    counters.add(MasterCounter.ADMISSIONS_ADMITTED, 1);
    evicting(slave, decision.evict(), MasterCounter.EVICTIONS_FOR_ROOM);
    return AdmissionAnswer.admit(decision.evict());
  }

  public synchronized MasterReport report() {
    expireSilentSlaves();
    String state = recovering() ? "recovering" : "active";
    return MasterReports.build(state, policy, slaves.all(), dataSets, space, clock.getAsLong());
  }

  /** The last data sets evicted, newest first (RecentEvictions.KEPT at most). */
  public List<RecentEvictions.Eviction> recentEvictions() {
    return recentEvictions.newestFirst();
  }

  /**
   * The master's figures as of its last heartbeat, for its metrics: read without the master's
   * lock (the NameNode's metrics thread must not wait for it).
   */
  public MasterGauges gauges() {
    return gauges;
  }

  private void updateGauges() {
    int cached = 0;
    int pending = 0;
    for (Slave slave : slaves.all()) {
      cached += policy.usedBlocks(slave.node);
      pending += policy.pendingEvictions(slave.node);
    }
    gauges = new MasterGauges(dataSets.size() + policy.trackedDataSets() + passes.tracked(),
        cached, policy.pinnedCopies(), pending, recovering());
  }

  public synchronized List<List<String>> cachedOn(long[] blockIds) {
    expireSilentSlaves();
    List<List<String>> holders = new ArrayList<>(blockIds.length);
    List<Slave> serving = slaves.all().stream()
        .filter(slave -> !namespace.leavingService(slave.uuid)).toList();
    for (long block : blockIds) {
      holders.add(serving.stream().filter(slave -> policy.isCached(slave.node, block))
          .map(slave -> slave.uuid).toList());
    }
    return holders;
  }

  /** True until the master has the whole picture and makes decisions. */
  public synchronized boolean recovering() {
    return recovery.recovering(clock.getAsLong(), slaves.uuids(), namespace::liveDataNodes);
  }

  /** Nanoseconds the master has held the namesystem's lock, in all (see Namespace). */
  public long namesystemLockNanos() {
    return namespace.lockHeldNanos();
  }

  /** The policy's data set of a block, as {@link #dataSet(DataSetRef)}. */
  private DataSet dataSet(BlockOwner owner) {
    return owner == null ? null : dataSet(owner.dataSet());
  }

  /**
   * The policy's data set for a namespace one, null for none; a pin or unpin set on its path
   * since the master last saw it takes effect now.
   */
  private DataSet dataSet(DataSetRef ref) {
    long now = clock.getAsLong();
    DataSet dataSet = dataSets.dataSet(ref, now);
    if (dataSet == null) {
      return null;
    }
    int cap = settings.maxTrackedDataSets();
    if (dataSets.size() > cap) {
      counters.add(MasterCounter.DATA_SETS_FORGOTTEN_OVER_CAP,
          dataSets.forgetOverCap(cap, dataSet.id(), now, this::forgetOverCap));
    }
    steering.controlsSeen(ref, dataSet, now);
    return dataSet;
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
    long[] evict = policy.evictFrom(slave.node, blocks);
    dataSetsEvicted(MasterCounter.EVICTIONS_FOR_LOCALIZED_DATA,
        () -> "room on " + slave.hostname + " lent to localized data");
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
    if (LOG.isDebugEnabled() && hits.length > 0) {
      LOG.debug("mpCache master: slave {} reports hits {}", slave.hostname,
          Arrays.toString(hits));
    }
    BlockOwner[] hitOwners = namespace.ownersOf(hits);
    for (int i = 0; i < hits.length; i++) {
      DataSet dataSet = dataSet(hitOwners[i]);
      if (dataSet != null) {
        noteRead(dataSet, hits[i], hitOwners[i].startsFile());
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

  private void heardFrom(Slave slave, SlaveUsage usage) {
    slaves.heard(slave, clock.getAsLong());
    space.usage(slave.uuid, usage);
    int capacityBlocks =
        (int) Math.min(Integer.MAX_VALUE, usage.capacityBytes() / namespace.blockSizeBytes());
    int declared = policy.declaredCapacity(slave.node);
    if (capacityBlocks != declared) {
      // Changes while the node's tuner lends room to localized data and takes it back.
      LOG.debug("mpCache master: slave {} has room for {} blocks of input data ({})",
          slave.hostname, capacityBlocks, declared < 0 ? "first report" : "was " + declared);
    }
    policy.setCapacity(slave.node, capacityBlocks);
  }

  /** Records copies the slave holds; blocks the namespace no longer has are ignored. */
  private void restore(int node, long[] blocks) {
    BlockOwner[] owners = namespace.ownersOf(blocks);
    for (int i = 0; i < blocks.length; i++) {
      DataSet dataSet = dataSet(owners[i]);
      if (dataSet != null) {
        policy.restore(node, blocks[i], dataSet);
      }
    }
  }

  /** A block read: a new pass over its data set counts as a data-set access. */
  private void noteRead(DataSet dataSet, long block, boolean startsFile) {
    steering.read(dataSet.id());
    if (passes.read(dataSet, block, startsFile)) {
      counters.add(MasterCounter.DATA_SET_ACCESSES, 1);
      String path = dataSets.get(dataSet.id()).path();
      // Beside the admissions, what the simulation's accesses are compared with.
      LOG.debug("mpCache master: block {} starts a new pass over {}: a data-set access", block,
          path);
      policy.dataSetAccessed(dataSet);
      space.accessed(path, dataSet.blocks(), clock.getAsLong());
    }
  }

  /**
   * Forgets data sets unseen for {@code dfs.mpcache.master.dataset.idle-expiry} that hold no
   * copy, from every table (docs/architecture.md, "Forgetting data sets"): deleted and
   * long-unread ones, which would otherwise stay in the NameNode's heap for good.
   */
  private void forgetIdleDataSets() {
    long now = clock.getAsLong();
    for (int id : dataSets.unseenSince(now - settings.dataSetIdleMillis(),
        FORGOTTEN_PER_HEARTBEAT)) {
      if (!forget(id)) {
        dataSets.keep(id, now);
      }
    }
  }

  /**
   * A data set beyond {@code dfs.mpcache.master.dataset.max-tracked} is forgotten unless it holds
   * copies, a pin or a TTL, or an admin's load of it is under way.
   */
  private boolean forgetOverCap(int id) {
    return !steering.steers(id) && forget(id);
  }

  /** Forgets the data set from every table; false, forgetting nothing, while it holds copies. */
  private boolean forget(int id) {
    if (!policy.forgetDataSet(id)) {
      return false;
    }
    steering.forget(id);
    passes.forget(id);
    dataSets.forget(id);
    return true;
  }

  private void expireSilentSlaves() {
    long now = clock.getAsLong();
    for (Slave slave : slaves.expire(now, settings.expiryMillis())) {
      LOG.warn("mpCache master: no heartbeat from slave {} ({}) for {} ms; forgetting its copies"
          + " until it registers again", slave.hostname, slave.uuid, now - slave.lastHeard);
      // What it was still to delete (To_Del, freed data sets) goes when it registers again.
      condemnedWhileSilent.put(slave.uuid, policy.forgetNode(slave.node));
      steering.forgetNode(slave.node);
      space.forget(slave.uuid);
    }
  }
}
