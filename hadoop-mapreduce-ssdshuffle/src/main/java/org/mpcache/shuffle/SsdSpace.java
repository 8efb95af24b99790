package org.mpcache.shuffle;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedSpaceClientSideTranslatorPB;
import org.mpcache.protocol.LocalizedSpaceProtocol.Reservation;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task attempt's link to its node's Dynamic Space Tuner: asks for room on the SSD, renews its
 * grants while the JVM runs, and hands them back when the JVM ends (killed ones lapse). Any
 * failure to reach the slave is logged once and sends every later file to the HDD dirs.
 */
final class SsdSpace {
  private static final Logger LOG = LoggerFactory.getLogger(SsdSpace.class);
  /** A task's calls give up fast: writing to HDD is always possible. */
  private static final int TIMEOUT_MILLIS = 2_000;
  private static SsdSpace current;

  private final String attemptId;
  private final String address;
  private final JobConf conf;
  private LocalizedSpaceClientSideTranslatorPB client;
  private ScheduledExecutorService renewer;
  private boolean broken;

  private SsdSpace(String attemptId, String address, JobConf conf) {
    this.attemptId = attemptId;
    this.address = address;
    this.conf = conf;
  }

  /** The JVM's link for the attempt (a task JVM runs one attempt). */
  static synchronized SsdSpace forAttempt(String attemptId, String address, JobConf conf) {
    if (current == null || !current.attemptId.equals(attemptId)
        || !current.address.equals(address)) {
      if (current != null) {
        current.finish();
      }
      current = new SsdSpace(attemptId, address, conf);
      Runtime.getRuntime().addShutdownHook(new Thread(current::finish, "mpcache-ssd-release"));
    }
    return current;
  }

  /** True when {@code bytes} more may be written to the SSD by this attempt. */
  synchronized boolean reserve(long bytes) {
    if (broken || bytes < 0) {
      return false;
    }
    try {
      if (client == null) {
        client = connect();
      }
      Reservation reservation = client.reserve(attemptId, bytes);
      if (reservation.granted() && renewer == null) {
        long every = Math.max(1, reservation.leaseMillis() / 3);
        renewer = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder()
            .setDaemon(true).setNameFormat("mpcache-ssd-lease").build());
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
      }
      return reservation.granted();
    } catch (IOException | RuntimeException e) {
      LOG.warn("mpCache: the cache slave at {} cannot be reached ({}); this attempt writes its "
          + "intermediate files to the HDD local dirs", address, e.toString());
      broken = true;
      return false;
    }
  }

  /**
   * Connects proving the attempt's job with the job's channel key (docs/security.md), derived
   * from the shuffle secret YARN gives each of the job's tasks; without that secret (a job run
   * in-process) the attempt is only named.
   */
  private LocalizedSpaceClientSideTranslatorPB connect() throws IOException {
    InetSocketAddress slave = NetUtils.createSocketAddr(address);
    byte[] jobSecret = jobSecret();
    if (jobSecret == null) {
      return LocalizedSpaceClientSideTranslatorPB.connect(conf, slave, TIMEOUT_MILLIS);
    }
    String jobId = TaskAttemptID.forName(attemptId).getJobID().toString();
    return LocalizedSpaceClientSideTranslatorPB.connect(conf, slave, TIMEOUT_MILLIS,
        LocalizedTokenIdentifier.ofJob(jobId), LocalizedChannelKeys.jobKey(jobSecret, jobId));
  }

  /** The job's shuffle secret, or its job token's password as YARN falls back to, or null. */
  private byte[] jobSecret() {
    Credentials credentials = conf.getCredentials();
    byte[] shuffleSecret = TokenCache.getShuffleSecretKey(credentials);
    if (shuffleSecret != null) {
      return shuffleSecret;
    }
    Token<JobTokenIdentifier> jobToken = TokenCache.getJobToken(credentials);
    return jobToken == null ? null : jobToken.getPassword();
  }

  private synchronized void renew() {
    try {
      if (client != null && !broken) {
        client.renew(attemptId);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("mpCache: renewing the SSD grants at {} failed ({}); they will lapse", address,
          e.toString());
    }
  }

  /** The attempt ends: its grants go back (its files count until YARN deletes them). */
  synchronized void finish() {
    if (renewer != null) {
      renewer.shutdownNow();
      renewer = null;
    }
    if (client != null) {
      try {
        client.finish(attemptId);
      } catch (IOException | RuntimeException e) {
        LOG.debug("mpCache: finishing {} at {} failed; its grants will lapse", attemptId,
            address, e);
      }
      client.close();
      client = null;
    }
  }
}
