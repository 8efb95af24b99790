package org.mpcache.master;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeTokens;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ServicePlugin;
import org.apache.hadoop.util.Time;
import org.mpcache.compat.HadoopRelease;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterSettings;
import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MasterProtocolServerSideTranslatorPB;
import org.mpcache.protocol.MasterReport;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.MpCacheMasterProtocolPB;
import org.mpcache.protocol.MpCachePolicyProvider;
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
  private MasterSettings settings;
  private RPC.Server server;
  private ActiveMaster master;
  private MasterCallers callers;
  private final MasterCounter.Values counters = new MasterCounter.Values();
  private MasterMetrics metrics;

  @Override
  public void start(Object service) {
    nameNode = (NameNode) service;
    String mismatch = HadoopRelease.mismatch("the mpCache master");
    if (mismatch != null) {
      LOG.error("{}: no master on this NameNode, slaves decide on their own", mismatch);
      return;
    }
    Configuration conf = nameNode.getConf();
    try {
      settings = MasterSettings.from(conf, nameNode.getNameNodeAddress());
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
    metrics = MasterMetrics.register(counters, this::trackedDataSets);
    LOG.info("mpCache master ({} policy, data set = {}) listening on {}", settings.policy(),
        settings.dataSet(), server.getListenerAddress());
  }

  private int trackedDataSets() {
    CacheMaster current = master.current();
    return current == null ? 0 : current.trackedDataSets();
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
  private CacheMaster freshMaster() {
    Configuration conf = nameNode.getConf();
    long blockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY,
        DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
    LOG.info("mpCache master: recovering state from the slaves' registrations (at most {} ms)",
        settings.recoveryMillis());
    return new CacheMaster(settings, new NameNodeNamespace(nameNode.getNamesystem(),
        "file".equals(settings.dataSet()), settings.cachedPaths(), blockSize),
        Time::monotonicNow, counters);
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
    return master.run(active -> active.register(datanodeUuid, hostname, usage, cachedBlocks));
  }

  @Override
  public HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage, long[] hits,
      long[] misses, long[] cached, long[] removed) throws IOException {
    return master.run(active -> active.heartbeat(datanodeUuid, usage, hits, misses, cached,
        removed));
  }

  @Override
  public AdmissionAnswer requestAdmission(String datanodeUuid, long blockId, long bytes,
      long[] hits) throws IOException {
    return master.run(active -> active.requestAdmission(datanodeUuid, blockId, bytes, hits));
  }

  @Override
  public MasterReport report() throws IOException {
    master.get(); // a standby says so before it refuses a caller
    callers.checkSuperuser("mpCacheReport");
    return master.run(CacheMaster::report);
  }

  @Override
  public boolean switchMaster(boolean on) throws IOException {
    callers.checkSuperuser("mpCacheSwitch");
    boolean wasOn = master.switchTo(on);
    if (wasOn != on) {
      LOG.info("mpCache master switched {} by {}", on ? "on" : "off", Server.getRemoteUser());
    }
    return wasOn;
  }

  @Override
  public List<List<String>> cachedOn(long[] blockIds) throws IOException {
    master.get(); // a standby says so before it refuses a request
    if (blockIds.length > MAX_CACHED_ON_BLOCKS) {
      throw new IOException("mpCache master: a cachedOn call asks about " + blockIds.length
          + " blocks; at most " + MAX_CACHED_ON_BLOCKS + " a call");
    }
    return master.run(active -> active.cachedOn(blockIds));
  }
}
