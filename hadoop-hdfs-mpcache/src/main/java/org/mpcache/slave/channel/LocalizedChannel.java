package org.mpcache.slave.channel;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.mpcache.conf.LocalizedSettings;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.protocol.LocalizedSpaceProtocolPB;
import org.mpcache.protocol.LocalizedSpaceServerSideTranslatorPB;
import org.mpcache.protocol.MpCachePolicyProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The localized-space channel: the loopback RPC server through which task JVMs reach the
 * Dynamic Space Tuner, the callers it takes ({@link ChannelCallers}, {@link ChannelJobKeys}), and
 * the address files that let a task find it among its local dirs ({@link ChannelAddressFiles}).
 * The tuner decides; the channel only carries and checks calls (docs/security.md, "The
 * localized-space channel").
 */
public final class LocalizedChannel {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedChannel.class);
  /** Requests waiting for evictions hold a handler each; the others keep being answered. */
  private static final int HANDLERS = 4;

  private final ChannelJobKeys jobKeys;
  private final ChannelCallers callers;
  private final RPC.Server server;
  private final String address;
  private final ChannelAddressFiles addressFiles;
  /** The last publication of the address files failed (said once); on the tuner's scan thread. */
  private boolean publishFailing;

  private LocalizedChannel(ChannelJobKeys jobKeys, ChannelCallers callers, RPC.Server server,
      List<Path> dirs) {
    this.jobKeys = jobKeys;
    this.callers = callers;
    this.server = server;
    InetSocketAddress bound = NetUtils.getConnectAddress(server);
    this.address = bound.getHostString() + ":" + bound.getPort();
    this.addressFiles = new ChannelAddressFiles(dirs, address);
  }

  /**
   * Serves {@code tuner} at the settings' address; its address files go into {@code dirs} at
   * each {@link #publishAddress}.
   */
  public static LocalizedChannel serve(LocalizedSpaceProtocol tuner, LocalizedSettings settings,
      List<Path> dirs, Configuration conf, LongSupplier clock) throws IOException {
    byte[] relaySecret = settings.relaySecret();
    boolean proofsRequired = relaySecret != null;
    ChannelJobKeys jobKeys = new ChannelJobKeys(relaySecret, clock);
    ChannelCallers callers = new ChannelCallers(proofsRequired);
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, LocalizedSpaceProtocolPB.class, ProtobufRpcEngine2.class);
    InetSocketAddress bind = settings.address();
    RPC.Server server = new RPC.Builder(rpcConf).setProtocol(LocalizedSpaceProtocolPB.class)
        .setInstance(LocalizedSpaceServerSideTranslatorPB.service(tuner, jobKeys, callers))
        .setSecretManager(proofsRequired ? jobKeys : null)
        .setBindAddress(bind.getHostString()).setPort(bind.getPort()).setNumHandlers(HANDLERS)
        .setVerbose(false).build();
    if (rpcConf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
      server.refreshServiceAcl(rpcConf, new MpCachePolicyProvider());
    }
    server.start();
    if (!proofsRequired) {
      LOG.warn("mpCache: {} is not set: the localized-space channel takes task attempts as they"
          + " name themselves (docs/security.md)", DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY);
    }
    return new LocalizedChannel(jobKeys, callers, server, dirs);
  }

  /** host:port the channel listens at, as the address files name it. */
  public String address() {
    return address;
  }

  /**
   * Writes the address file again where it is missing (the NodeManager cleans its local dirs at
   * start-up) or replaced; says once why it cannot, until it can again. Does I/O in the
   * localized dirs: call it where a hung device stalls nothing else.
   */
  public void publishAddress() {
    try {
      addressFiles.publish();
      publishFailing = false;
    } catch (IOException e) {
      if (!publishFailing) {
        LOG.warn("mpCache: tasks of this node may not find the localized-space channel: {}",
            e.getMessage());
      }
      publishFailing = true;
    }
  }

  /** Deletes the address files; the same I/O caveat as {@link #publishAddress}. */
  public void withdrawAddress() throws IOException {
    addressFiles.withdraw();
  }

  /** Stops taking calls. */
  public void stop() {
    server.stop();
  }

  /** Jobs whose channel keys the NodeManager's relay handed over and has not taken back. */
  public int jobsWithKeys() {
    return jobKeys.jobs();
  }

  /** Channel calls refused since start: the caller could not act for what it named. */
  public long refusedCalls() {
    return callers.refused();
  }
}
