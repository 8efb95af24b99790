package org.mpcache.slave;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.security.token.SecretManager;
import org.mpcache.protocol.LocalizedRelayProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;

/**
 * The passwords the localized-space channel checks callers' tokens against (docs/security.md,
 * "The localized-space channel"): the relay secret for the NodeManager's relay, and the key of
 * each job the relay admitted for that job's tasks. Tokens are made by the relay and the tasks,
 * never here.
 */
final class ChannelJobKeys extends SecretManager<LocalizedTokenIdentifier>
    implements LocalizedRelayProtocol {
  static final Pattern JOB = Pattern.compile("job_\\d+_\\d+");
  /** More jobs with containers on one node at once than any node runs; beyond it, refused. */
  static final int MAX_JOBS = 10_000;
  /** The keys the relay derives are 32 bytes (HMAC-SHA256); anything far off is no key. */
  private static final int MIN_KEY_BYTES = 16;
  private static final int MAX_KEY_BYTES = 64;

  /** Null: no relay secret configured, no relay proves itself. */
  private final byte[] relaySecret;
  private final Map<String, byte[]> keys = new ConcurrentHashMap<>();

  ChannelJobKeys(byte[] relaySecret) {
    this.relaySecret = relaySecret == null ? null : relaySecret.clone();
  }

  @Override
  public void admitJob(String jobId, byte[] key) throws IOException {
    if (!JOB.matcher(jobId).matches()) {
      throw new IOException("mpCache: \"" + StringUtils.abbreviate(jobId, 80)
          + "\" is not a job id (job_<cluster>_<job>)");
    }
    if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
      throw new IOException("mpCache: the key of " + jobId + " is " + key.length
          + " bytes; a job key is " + MIN_KEY_BYTES + " to " + MAX_KEY_BYTES + " bytes");
    }
    if (keys.size() >= MAX_JOBS && !keys.containsKey(jobId)) {
      throw new IOException("mpCache: " + MAX_JOBS + " jobs already hold keys on this node;"
          + " the NodeManager's relay forgets none (" + jobId + " refused)");
    }
    keys.put(jobId, key.clone());
  }

  @Override
  public void forgetJob(String jobId) {
    keys.remove(jobId);
  }

  int jobs() {
    return keys.size();
  }

  @Override
  public byte[] retrievePassword(LocalizedTokenIdentifier identity) throws InvalidToken {
    if (identity.isRelay()) {
      if (relaySecret == null) {
        throw new InvalidToken("mpCache: this DataNode has no relay secret");
      }
      return relaySecret.clone();
    }
    byte[] key = keys.get(identity.jobId());
    if (key == null) {
      throw new InvalidToken("mpCache: no key for " + identity.jobId() + " on this node: the"
          + " NodeManager's relay has not handed it over (docs/security.md)");
    }
    return key.clone();
  }

  @Override
  protected byte[] createPassword(LocalizedTokenIdentifier identity) {
    throw new UnsupportedOperationException("the channel's tokens are made by their holders");
  }

  @Override
  public LocalizedTokenIdentifier createIdentifier() {
    return new LocalizedTokenIdentifier();
  }
}
