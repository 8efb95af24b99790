package org.mpcache.shuffle;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.mpcache.conf.ConfValues;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedRelayProtocol;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's side of the localized-space channel (docs/security.md): hands the node's
 * cache slave the channel key of each job with containers here, proving itself with the relay
 * secret, and takes it back when the job ends. Calls run on a thread of their own: a slow or
 * dead DataNode never holds up the NodeManager. Every live job's key is sent again every
 * {@link #RESEND_MILLIS}, so a DataNode that restarted learns them back, and keys whose end was
 * never reported lapse there. Keys travel masked with the relay secret
 * ({@link LocalizedChannelKeys#mask}), and only to a loopback address named in a NodeManager
 * local dir itself: a process that took the channel's port learns nothing.
 */
final class ChannelRelay implements Closeable {
  static final long RESEND_MILLIS = LocalizedRelayProtocol.KEY_LEASE_MILLIS / 4;
  private static final Logger LOG = LoggerFactory.getLogger(ChannelRelay.class);
  private static final int TIMEOUT_MILLIS = 2_000;

  private final Configuration conf;
  private final String[] localDirs;
  private final byte[] relaySecret;
  /** Keys of the jobs with containers on this node. */
  private final Map<String, byte[]> liveJobs = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("mpcache-channel-relay").build());
  /**
   * Whether the last call failed: a failure is logged when it starts, not on every call. Only the
   * sender thread touches it.
   */
  private boolean failing;

  private ChannelRelay(Configuration conf, byte[] relaySecret, long resendMillis) {
    this.conf = conf;
    this.localDirs = conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS);
    this.relaySecret = relaySecret;
    sender.scheduleWithFixedDelay(this::resendAll, resendMillis, resendMillis,
        TimeUnit.MILLISECONDS);
  }

  /** The relay the NodeManager's configuration asks for, or null without a relay secret. */
  static ChannelRelay from(Configuration conf) throws InvalidSettingException {
    return from(conf, RESEND_MILLIS);
  }

  /** The same, resending every {@code resendMillis} (tests make it short). */
  static ChannelRelay from(Configuration conf, long resendMillis)
      throws InvalidSettingException {
    byte[] secret = ConfValues.secretFile(conf,
        MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY,
        MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_RELAY_SECRET_MIN_BYTES);
    return secret == null ? null : new ChannelRelay(conf, secret, resendMillis);
  }

  /**
   * A container of the job starts here; its tasks hold {@code shuffleSecret}. Sent once per job
   * (each of its containers brings the same secret).
   */
  void admit(String jobId, byte[] shuffleSecret) {
    byte[] key = LocalizedChannelKeys.jobKey(shuffleSecret, jobId);
    byte[] known = liveJobs.put(jobId, key);
    if (known == null || !Arrays.equals(known, key)) {
      submit(() -> send(List.of(new Call(jobId, key))));
    }
  }

  /** The job ended on this node. */
  void forget(String jobId) {
    if (liveJobs.remove(jobId) != null) {
      submit(() -> send(List.of(new Call(jobId, null))));
    }
  }

  /** Hands calls to the sender thread, unless the NodeManager is stopping. */
  private void submit(Runnable calls) {
    try {
      sender.execute(calls);
    } catch (RejectedExecutionException e) {
      LOG.debug("mpCache: relay stopped; not sending", e);
    }
  }

  private void resendAll() {
    List<Call> calls = new ArrayList<>();
    liveJobs.forEach((jobId, key) -> calls.add(new Call(jobId, key)));
    if (!calls.isEmpty()) {
      send(calls);
    }
  }

  /** Admits a job with {@code key}, or forgets it when {@code key} is null. */
  private record Call(String jobId, byte[] key) {
  }

  /** Makes the calls over one connection: a resend costs one authentication, not one a job. */
  private void send(List<Call> calls) {
    InetSocketAddress address = slaveAddress();
    if (address == null) {
      return; // no cache slave keeps localized data in this node's local dirs
    }
    try (LocalizedSpaceClientSideTranslatorPB slave = LocalizedSpaceClientSideTranslatorPB
        .connect(conf, address, TIMEOUT_MILLIS, LocalizedTokenIdentifier.relay(),
            relaySecret)) {
      for (Call call : calls) {
        if (call.key() == null) {
          slave.forgetJob(call.jobId());
        } else {
          slave.admitJob(call.jobId(),
              LocalizedChannelKeys.mask(call.key(), relaySecret, call.jobId()));
        }
      }
      if (failing) {
        LOG.info("mpCache: the cache slave at {} takes job keys again", address);
        failing = false;
      }
    } catch (IOException | RuntimeException e) {
      if (!failing) {
        LOG.warn("mpCache: cannot hand job keys to the cache slave at {} ({}); their tasks"
            + " write intermediate data to the HDDs until a resend succeeds", address,
            e.toString());
        failing = true;
      }
    }
  }

  /**
   * The loopback address in the slave's file ({@link LocalizedSpaceProtocol#ADDRESS_FILE}) at
   * the top of a NodeManager local dir, where the DataNode writes it, or null.
   */
  private InetSocketAddress slaveAddress() {
    for (String dir : localDirs) {
      // A plain path or a file: URI, as yarn.nodemanager.local-dirs takes both.
      Path top = Paths.get(new org.apache.hadoop.fs.Path(dir).toUri().getPath());
      String named = LocalDirRoles.addressIn(top);
      if (named == null) {
        continue;
      }
      try {
        InetSocketAddress address = NetUtils.createSocketAddr(named);
        if (address.getAddress() != null && address.getAddress().isLoopbackAddress()) {
          return address;
        }
      } catch (IllegalArgumentException e) {
        // not an address: as below
      }
      LOG.warn("mpCache: {} in {} names {}, not a loopback address; no job key goes there",
          LocalizedSpaceProtocol.ADDRESS_FILE, top, named);
    }
    return null;
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}
