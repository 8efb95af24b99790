package org.mpcache.master;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeTokens;
import org.apache.hadoop.hdfs.server.namenode.NameNodeXAttrs;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ServicePlugin;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Time;
import org.mpcache.compat.HadoopRelease;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterSettings;
import org.mpcache.master.MasterMetrics.Call;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.master.arbitrator.MasterGauges;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.namespace.DataSetControl;
import org.mpcache.master.namespace.NameNodeNamespace;
import org.mpcache.master.namespace.Namespace.DataSetRef;
import org.mpcache.master.namespace.NamesystemHolds;
import org.mpcache.master.status.MasterStatus;
import org.mpcache.master.status.StatusPictures;
import org.mpcache.master.status.StatusServlet;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.ControlAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterProtocolServerSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.MpCacheMasterProtocolPB;
import org.mpcache.protocol.MpCachePolicyProvider;
import org.mpcache.protocol.RefreshAnswer;
import org.mpcache.protocol.Registration;
import org.mpcache.protocol.SlaveProof;
import org.mpcache.protocol.SlaveUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the cache master inside the NameNode ({@code dfs.namenode.plugins}) behind its own Hadoop
 * RPC endpoint ({@code dfs.mpcache.master.address}, with HA the NameNode's own
 * {@code dfs.mpcache.master.address.<nameservice>.<namenode id>}). Only an active NameNode's
 * master decides: on a standby every call fails with a
 * {@link org.apache.hadoop.ipc.StandbyException}, and a NameNode
 * that becomes active starts a fresh master that recovers its state from the slaves'
 * registrations. A bad setting, or a Hadoop of another release line, leaves the NameNode running
 * without a master (slaves then decide locally); so does {@code hdfs mpcacheadmin -master off}
 * until {@code -master on}. A master that fails is dropped and made anew ({@link ActiveMaster}).
 */
public final class MpCacheMasterPlugin implements ServicePlugin, MpCacheMasterProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheMasterPlugin.class);

  private NameNode nameNode;
  private MasterRefresh config;
  private RPC.Server server;
  private ActiveMaster master;
  private MasterCallers callers;
  private final MasterCounter.Values counters = new MasterCounter.Values();
  private volatile MasterMetrics metrics;
  private final StatusPictures pageStatus = new StatusPictures(Time::monotonicNow);

  @Override
  public void start(Object service) {
    nameNode = (NameNode) service;
    String mismatch = HadoopRelease.mismatch("the mpCache master");
    if (mismatch != null) {
      LOG.error("{}: no master on this NameNode, slaves decide on their own", mismatch);
      return;
    }
    Configuration conf = nameNode.getConf();
    MasterSettings settings;
    try {
      config = new MasterRefresh(conf, nameNode.getNameNodeAddress());
      settings = config.settings();
    } catch (InvalidSettingException e) {
      LOG.error("mpCache master not started, slaves will decide on their own: invalid setting {}",
          e.getMessage());
      return;
    }
    callers = new MasterCallers(nameNode.getNamesystem(), conf);
    master = new ActiveMaster(nameNode.getNameNodeAddressHostPortString(),
        nameNode::isActiveState, this::freshMaster, counters);
    try {
      RPC.setProtocolEngine(conf, MpCacheMasterProtocolPB.class, ProtobufRpcEngine2.class);
      server = new RPC.Builder(conf)
          .setProtocol(MpCacheMasterProtocolPB.class)
          .setInstance(MasterProtocolServerSideTranslatorPB.service(this, this::checkSlave))
          .setBindAddress(settings.bindAddress().getHostString())
          .setPort(settings.bindAddress().getPort())
          .setNumHandlers(settings.handlers())
          // Jobs' ApplicationMasters hold the NameNode's delegation tokens, not tickets.
          .setSecretManager(UserGroupInformation.isSecurityEnabled()
              ? NameNodeTokens.secretManager(nameNode.getNamesystem()) : null)
          .setVerbose(false)
          .build();
      server.addTerseExceptions(AccessControlException.class);
      if (conf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
        server.refreshServiceAcl(conf, new MpCachePolicyProvider());
      }
      server.start();
    } catch (IOException e) {
      LOG.error("mpCache master not started, slaves will decide on their own: cannot listen on"
          + " {}: {}", settings.bindAddress(), e.toString());
      server = null;
      return;
    }
    metrics = MasterMetrics.register(counters, this::gauges, () -> master.current() != null,
        settings.percentileIntervals());
    StatusServlet.register(nameNode.getHttpServer(), this);
    LOG.info("mpCache master ({} policy, data set = {}) listening on {}", settings.policy(),
        settings.dataSet(), server.getListenerAddress());
  }

  private MasterGauges gauges() {
    ReplaceArbitrator current = master.current();
    return current == null ? MasterGauges.NONE : current.gauges();
  }

  /** Where the master listens, or null when it did not start. */
  public InetSocketAddress address() {
    return server == null ? null : server.getListenerAddress();
  }

  @Override
  public void stop() {
    if (server != null) {
      server.stop();
      server = null;
    }
    if (metrics != null) {
      metrics.unregister();
      metrics = null;
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** A new master of this NameNode, which starts by recovering from the slaves. */
  private ReplaceArbitrator freshMaster() {
    Configuration conf = nameNode.getConf();
    long blockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY,
        DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
    MasterSettings settings = config.settings();
    LOG.info("mpCache master: recovering state from the slaves' registrations (at most {} ms)",
        settings.recoveryMillis());
    FSNamesystem namesystem = nameNode.getNamesystem();
    return new ReplaceArbitrator(settings, new NameNodeNamespace(namesystem,
        "file".equals(settings.dataSet()), () -> config.settings().cachedPaths(), blockSize,
        new NamesystemHolds(namesystem, NamesystemHolds.WORK_PER_HOLD, this::lockHeld)),
        Time::monotonicNow, counters);
  }

  /** One hold of the namesystem's lock by the master, for its metrics. */
  private void lockHeld(long wallNanos, long cpuNanos) {
    MasterMetrics published = metrics;
    if (published != null) {
      published.lockHeld(wallNanos, cpuNanos);
    }
  }

  /**
   * Runs before each slave call: a standby answers with a StandbyException first, so
   * that the slave turns to the other NameNode rather than taking a refusal.
   */
  private void checkSlave(String datanodeUuid, List<SlaveProof> proofs) throws IOException {
    master.get();
    try {
      callers.checkSlave(datanodeUuid, proofs);
    } catch (AccessControlException e) {
      counters.increment(MasterCounter.SLAVE_CALLS_REFUSED);
      throw e;
    }
  }

  @Override
  public Registration register(String datanodeUuid, String hostname, SlaveUsage usage,
      long[] cachedBlocks) throws IOException {
    return timed(Call.REGISTER, timing -> timing.run(active -> active.register(datanodeUuid,
        hostname, usage, cachedBlocks)));
  }

  @Override
  public HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage, long[] hits,
      long[] misses, long[] cached, long[] removed) throws IOException {
    return timed(Call.HEARTBEAT, timing -> timing.run(active -> active.heartbeat(datanodeUuid,
        usage, hits, misses, cached, removed)));
  }

  @Override
  public AdmissionAnswer requestAdmission(String datanodeUuid, long blockId, long bytes,
      long[] hits) throws IOException {
    return timed(Call.REQUEST_ADMISSION, timing -> timing.run(active -> active.requestAdmission(
        datanodeUuid, blockId, bytes, hits)));
  }

  @Override
  public MasterReport report() throws IOException {
    return timed(Call.REPORT, timing -> {
      master.get(); // a standby says so before it refuses a caller
      checkAdmin("mpCacheReport", null);
      MasterReport report = timing.run(ReplaceArbitrator::report);
      MasterAudit.log(true, "mpCacheReport", null, report.state());
      return report;
    });
  }

  /**
   * The status page's picture ({@link StatusServlet}): as the report, with the recent evictions;
   * paths only for an HDFS superuser {@code viewer}.
   */
  public MasterStatus status(UserGroupInformation viewer) {
    boolean superuser = callers.isSuperuser(viewer);
    MasterStatus status;
    try {
      status = pageStatus.get(master);
    } catch (IOException e) { // a standby, a master switched off: the page says which
      return MasterStatus.unavailable(e.getMessage());
    }
    return superuser ? status : status.withoutPaths();
  }

  @Override
  public boolean switchMaster(boolean on) throws IOException {
    return timed(Call.SWITCH_MASTER, timing -> {
      String command = on ? "mpCacheSwitchOn" : "mpCacheSwitchOff";
      checkAdmin(command, null);
      boolean wasOn = master.switchTo(on);
      if (wasOn != on) {
        LOG.info("mpCache master switched {} by {}", on ? "on" : "off", Server.getRemoteUser());
      }
      MasterAudit.log(true, command, null, "was " + (wasOn ? "on" : "off"));
      return wasOn;
    });
  }

  @Override
  public List<List<String>> cachedOn(long[] blockIds) throws IOException {
    return timed(Call.CACHED_ON, timing -> {
      master.get(); // a standby says so before it refuses a request
      if (blockIds.length > MAX_CACHED_ON_BLOCKS) {
        throw new IOException("mpCache master: a cachedOn call asks about " + blockIds.length
            + " blocks; at most " + MAX_CACHED_ON_BLOCKS + " a call");
      }
      return timing.run(active -> active.cachedOn(blockIds));
    });
  }

  @Override
  public ControlAnswer control(ControlOp op, String path, long ttlMillis) throws IOException {
    return timed(Call.CONTROL, timing -> {
      master.get(); // a standby says so before it refuses a caller
      String command = "mpCache" + StringUtils.camelize(op.name());
      checkAdmin(command, path);
      try {
        if (ttlMillis < 0) {
          throw new IOException("mpCache master: a TTL must be at least 0 ms, got " + ttlMillis);
        }
        if (path == null || !path.startsWith("/")) { // the namespace asserts on relative paths
          throw new IOException("mpCache master: a path must be absolute, got '" + path + "'");
        }
        ControlAnswer answer = switch (op) {
          case FREE -> timing.run(active -> active.free(path));
          case LOAD -> timing.run(active -> active.load(path));
          case STATUS -> timing.run(active -> active.controlled(path));
          default -> {
            DataSetRef dataSet = timing.run(active -> active.dataSetAt(path));
            // In the namespace first (as the caller, outside the master's lock), then applied.
            writeControl(op, dataSet, ttlMillis);
            yield timing.run(active -> active.controlled(dataSet.path()));
          }
        };
        MasterAudit.log(true, command, path, answer.toString());
        return answer;
      } catch (IOException e) {
        MasterAudit.log(true, command, path, "failed: " + e.getMessage());
        throw e;
      }
    });
  }

  /**
   * Re-reads the NameNode's configuration files (its start-up overrides stay) and applies the
   * master's keys that changed ({@link MasterRefresh}) and its service ACL; standby or active,
   * switched on or off.
   */
  @Override
  public RefreshAnswer refresh() throws IOException {
    return timed(Call.REFRESH, timing -> {
      checkAdmin("mpCacheRefresh", null);
      Configuration reread = new Configuration(nameNode.getConf());
      reread.reloadConfiguration();
      try {
        RefreshAnswer answer = config.refresh(reread, master);
        if (reread.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
          server.refreshServiceAcl(reread, new MpCachePolicyProvider()); // hadoop-policy.xml
        }
        LOG.info("mpCache master refreshed by {}: {}", Server.getRemoteUser(), answer);
        MasterAudit.log(true, "mpCacheRefresh", null, answer.toString());
        return answer;
      } catch (InvalidSettingException e) {
        String why = "not refreshed, the master keeps its settings: invalid setting "
            + e.getMessage();
        MasterAudit.log(true, "mpCacheRefresh", null, why);
        throw new IOException("mpCache master: " + why);
      }
    });
  }

  /** Keeps a pin or TTL in the data set's extended attributes ({@link DataSetControl}). */
  private void writeControl(ControlOp op, DataSetRef dataSet, long ttlMillis)
      throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    switch (op) {
      case PIN -> NameNodeXAttrs.set(namesystem, dataSet.path(),
          XAttrHelper.buildXAttr(DataSetControl.PIN_XATTR, DataSetControl.PINNED));
      case UNPIN -> {
        if (dataSet.control().pinned()) {
          NameNodeXAttrs.remove(namesystem, dataSet.path(),
              XAttrHelper.buildXAttr(DataSetControl.PIN_XATTR));
        }
      }
      case TTL -> {
        if (ttlMillis > 0) {
          NameNodeXAttrs.set(namesystem, dataSet.path(), XAttrHelper.buildXAttr(
              DataSetControl.TTL_XATTR, DataSetControl.ttlValue(ttlMillis)));
        } else if (dataSet.control().ttlMillis() > 0) {
          NameNodeXAttrs.remove(namesystem, dataSet.path(),
              XAttrHelper.buildXAttr(DataSetControl.TTL_XATTR));
        }
      }
      default -> throw new IllegalArgumentException(op.name());
    }
  }

  /** Refuses an admin call to a caller who is not an HDFS superuser, with an audit line. */
  private void checkAdmin(String command, String path) throws IOException {
    try {
      callers.checkSuperuser(command);
    } catch (AccessControlException e) {
      MasterAudit.log(false, command, path, "refused");
      throw e;
    }
  }

  /** One call's body, given what times its runs on the master. */
  @FunctionalInterface
  private interface TimedCall<T> {
    T call(Timing timing) throws IOException;
  }

  /** Runs calls on the master, adding up the time they hold the namesystem's lock. */
  private final class Timing {
    long lockNanos;

    <T> T run(ActiveMaster.Call<T> call) throws IOException {
      return master.run(active -> {
        long before = active.namesystemLockNanos();
        try {
          return call.on(active);
        } finally {
          lockNanos += active.namesystemLockNanos() - before;
        }
      });
    }
  }

  /** Runs a call of {@code kind}, recording its latency and namesystem lock time. */
  private <T> T timed(Call kind, TimedCall<T> body) throws IOException {
    long start = System.nanoTime();
    Timing timing = new Timing();
    try {
      return body.call(timing);
    } finally {
      MasterMetrics published = metrics;
      if (published != null) {
        published.served(kind, System.nanoTime() - start, timing.lockNanos);
      }
    }
  }
}
