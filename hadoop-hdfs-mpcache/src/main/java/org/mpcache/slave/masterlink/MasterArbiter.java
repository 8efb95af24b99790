package org.mpcache.slave.masterlink;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.Registration;
import org.mpcache.protocol.SlaveUsage;
import org.mpcache.slave.inputcache.Admission;
import org.mpcache.slave.inputcache.ArbitratedCache;
import org.mpcache.slave.inputcache.BlockKey;
import org.mpcache.slave.inputcache.CacheArbiter;
import org.mpcache.slave.inputcache.LocalArbiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The arbiter of a slave with a cache master: every admission is the master's decision, hits and
 * copy changes go to it in heartbeats, and the copies it evicts elsewhere are deleted when a
 * heartbeat brings them. Whenever the master cannot decide (unreachable, standby, recovering, or
 * it does not know this slave) the {@link LocalArbiter}, which always tracks the copies, decides;
 * hits keep being served from the SSD throughout. A lost master is looked for again at every
 * heartbeat, and the slave registers with every copy it holds.
 */
public final class MasterArbiter implements CacheArbiter {
  private static final Logger LOG = LoggerFactory.getLogger(MasterArbiter.class);

  private final LocalArbiter local;
  private final MasterLinkSettings settings;
  private final Configuration conf;
  private final SlaveIdentity identity;
  private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-heartbeat").build());
  private ArbitratedCache cache;
  /** A heartbeat hastened for the tuner waits to run: another would only repeat it. */
  private final AtomicBoolean hastened = new AtomicBoolean();
  private final AtomicLong heartbeatsSent = new AtomicLong();

  // Guarded by this; never held while calling the master or the cache.
  private MasterProtocolClientSideTranslatorPB master;
  private Registration registration;
  private String state = "not registered yet";
  private final BlockIdBatch hits;
  private final BlockIdBatch misses;
  private final CopyChanges copyChanges = new CopyChanges();

  public MasterArbiter(LocalArbiter local, MasterLinkSettings settings, Configuration conf,
      SlaveIdentity identity) {
    this.local = local;
    this.settings = settings;
    this.conf = conf;
    this.identity = identity;
    this.hits = new BlockIdBatch(settings.reportBatch());
    this.misses = new BlockIdBatch(settings.reportBatch());
  }

  /** Starts heartbeating for {@code cache}. */
  public void start(ArbitratedCache arbitrated) {
    this.cache = arbitrated;
    heartbeats.scheduleWithFixedDelay(this::beat, 0, settings.heartbeatMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public Admission requestAdmission(BlockKey block, long bytes, Room room) {
    MasterProtocolClientSideTranslatorPB client;
    long[] hitIds;
    synchronized (this) {
      if (registration == null || !registration.blockPoolId().equals(block.blockPoolId())) {
        return local.requestAdmission(block, bytes, room);
      }
      client = master;
      hitIds = hits.drain(); // counted before the decision, as the policy ranks by them
    }
    AdmissionAnswer answer;
    try {
      answer = client.requestAdmission(identity.datanodeUuid(), block.blockId(), bytes, hitIds);
    } catch (IOException e) {
      lost(client, e);
      return local.requestAdmission(block, bytes, room);
    }
    switch (answer.verdict()) {
      case ADMIT:
        synchronized (this) {
          copyChanges.admitted(block);
        }
        List<BlockKey> evict = new ArrayList<>(answer.evict().length);
        for (long blockId : answer.evict()) {
          evict.add(new BlockKey(block.blockPoolId(), blockId));
        }
        // The master counts whole blocks: more may go when this node's copies are larger.
        return Admission.admit(local.victimsAfter(evict, bytes,
            room.bytesFreeAfterEvicting(evict)));
      case REJECT:
        return Admission.REJECTED;
      case REREGISTER:
        registerAgain(client);
        break;
      case RECOVERING:
      default:
        break;
    }
    synchronized (this) {
      misses.add(block.blockId());
    }
    return local.requestAdmission(block, bytes, room);
  }

  @Override
  public void onHit(BlockKey block) {
    local.onHit(block);
    synchronized (this) {
      if (registration != null && registration.blockPoolId().equals(block.blockPoolId())) {
        hits.add(block.blockId());
      }
    }
  }

  @Override
  public void onCached(BlockKey block, long bytes) {
    local.onCached(block, bytes);
    synchronized (this) {
      copyChanges.cached(block);
    }
  }

  @Override
  public void onRemoved(BlockKey block) {
    local.onRemoved(block);
    synchronized (this) {
      copyChanges.removed(block);
    }
  }

  /**
   * With a master, the victims are the master's to choose: one heartbeat is sent now rather than
   * at the next interval (at most one waits at a time), and its answer evicts them.
   */
  @Override
  public List<BlockKey> shrinkVictims(long excessBytes) {
    synchronized (this) {
      if (registration != null) {
        if (hastened.compareAndSet(false, true)) {
          try {
            heartbeats.execute(() -> {
              hastened.set(false);
              beat();
            });
          } catch (RejectedExecutionException e) {
            // stopped: the DataNode is shutting down
          }
        }
        return List.of();
      }
    }
    return local.shrinkVictims(excessBytes);
  }

  /** Heartbeats sent to the master since start. */
  public long heartbeatsSent() {
    return heartbeatsSent.get();
  }

  @Override
  public synchronized String describe() {
    return state;
  }

  public void stop() {
    heartbeats.shutdownNow();
    synchronized (this) {
      if (master != null) {
        master.close();
        master = null;
      }
      registration = null;
    }
  }

  /** One heartbeat, or a registration attempt while none holds. */
  public void beat() {
    try {
      boolean registered;
      synchronized (this) {
        registered = registration != null;
      }
      if (registered) {
        heartbeat();
      } else {
        register();
      }
    } catch (RuntimeException e) {
      LOG.warn("mpCache: heartbeat to the cache master failed", e);
    }
  }

  private void register() {
    SlaveUsage usage = cache.usage();
    String failures = "";
    for (InetSocketAddress address : settings.masters()) {
      MasterProtocolClientSideTranslatorPB client;
      try {
        client = MasterProtocolClientSideTranslatorPB.connect(conf, address,
            settings.timeoutMillis(), identity.proofs());
      } catch (IOException e) {
        failures += address + ": " + e + "; ";
        continue;
      }
      long[] cached;
      synchronized (this) {
        cached = local.cached().stream().mapToLong(BlockKey::blockId).toArray();
        copyChanges.clear();
        hits.drain();
        misses.drain();
      }
      try {
        Registration joined = client.register(identity.datanodeUuid(), identity.hostname().get(),
            usage, cached);
        synchronized (this) {
          if (master != null && master != client) {
            master.close();
          }
          master = client;
          registration = joined;
          state = "master " + address;
        }
        LOG.info("mpCache: registered with the cache master at {} (block pool {}, {} copies)",
            address, joined.blockPoolId(), cached.length);
        return;
      } catch (IOException e) {
        client.close();
        failures += address + ": " + firstLine(e) + "; ";
      }
    }
    String unreachable = "local LRU: no cache master reachable (" + failures.trim() + ")";
    synchronized (this) {
      if (!unreachable.equals(state)) {
        LOG.warn("mpCache: {}; trying again every heartbeat", unreachable);
      }
      state = unreachable;
    }
  }

  private void heartbeat() {
    SlaveUsage usage = cache.usage();
    MasterProtocolClientSideTranslatorPB client;
    String pool;
    long[] hitIds;
    long[] missIds;
    CopyChanges.Report changes;
    synchronized (this) {
      client = master;
      pool = registration.blockPoolId();
      hitIds = hits.drain();
      missIds = misses.drain();
      changes = copyChanges.drain(pool);
    }
    HeartbeatAnswer answer;
    heartbeatsSent.incrementAndGet();
    try {
      answer = client.heartbeat(identity.datanodeUuid(), usage, hitIds, missIds,
          changes.cached(), changes.removed());
    } catch (IOException e) {
      lost(client, e);
      return;
    }
    if (answer.reregister()) {
      registerAgain(client);
    }
    if (answer.evict().length > 0) {
      cache.evict(pool, answer.evict());
    }
    if (answer.load().length > 0) {
      cache.load(pool, answer.load());
    }
    // The master counts whole blocks, the tuner's limit counts bytes (checksums too).
    cache.trimToLimit(local::shrinkVictims);
  }

  /** The master does not know this slave (it restarted): the next heartbeat registers. */
  private void registerAgain(MasterProtocolClientSideTranslatorPB client) {
    synchronized (this) {
      if (master != client || registration == null) {
        return;
      }
      registration = null;
      state = "registering again (the master did not know this slave)";
    }
    LOG.info("mpCache: the cache master does not know this slave; registering again");
  }

  /** The master failed a call: decide locally until a heartbeat finds it again. */
  private void lost(MasterProtocolClientSideTranslatorPB client, IOException cause) {
    synchronized (this) {
      if (master != client) {
        return;
      }
      master.close();
      master = null;
      registration = null;
      state = "local LRU: lost the cache master (" + firstLine(cause) + ")";
    }
    LOG.warn("mpCache: lost the cache master ({}); deciding locally (LRU) until it is back",
        firstLine(cause));
  }

  private static String firstLine(IOException e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return e.getClass().getSimpleName() + ": "
        + (newline < 0 ? message : message.substring(0, newline));
  }
}
