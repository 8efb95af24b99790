package org.mpcache.slave.channel;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.security.token.SecretManager;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedRelayProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;

/**
 * The passwords the localized-space channel checks callers' tokens against (docs/security.md,
 * "The localized-space channel"): the relay secret for the NodeManager's relay, and the key of
 * each job the relay admitted for that job's tasks. A key lapses unless the relay admits it
 * again within {@link LocalizedRelayProtocol#KEY_LEASE_MILLIS}, so the keys of jobs whose end no
 * NodeManager reported (it restarted, a call was lost) do not pile up. Tokens are made by the
 * relay and the tasks, never here.
 */
public final class ChannelJobKeys extends SecretManager<LocalizedTokenIdentifier>
    implements LocalizedRelayProtocol {
  /** More jobs with containers on one node at once than any node runs; beyond it, refused. */
  static final int MAX_JOBS = 10_000;

  private record Key(byte[] key, long expiresMillis) {
  }

  /** Null: no relay secret configured, no relay proves itself. */
  private final byte[] relaySecret;
  private final LongSupplier clock;
  private final Map<String, Key> keys = new HashMap<>();

  public ChannelJobKeys(byte[] relaySecret, LongSupplier clock) {
    this.relaySecret = relaySecret == null ? null : relaySecret.clone();
    this.clock = clock;
  }

  @Override
  public synchronized void admitJob(String jobId, byte[] maskedKey) throws IOException {
    if (relaySecret == null) {
      throw new IOException("mpCache: this DataNode has no relay secret to read job keys with");
    }
    if (!LocalizedTokenIdentifier.JOB_ID.matcher(jobId).matches()) {
      throw new IOException("mpCache: \"" + StringUtils.abbreviate(jobId, 80)
          + "\" is not a job id (job_<cluster>_<job>)");
    }
    if (maskedKey.length != LocalizedChannelKeys.KEY_BYTES) {
      throw new IOException("mpCache: the key of " + jobId + " is " + maskedKey.length
          + " bytes; a job key is " + LocalizedChannelKeys.KEY_BYTES);
    }
    long now = clock.getAsLong();
    expire(now);
    if (keys.size() >= MAX_JOBS && !keys.containsKey(jobId)) {
      throw new IOException("mpCache: " + MAX_JOBS + " jobs already hold keys on this node ("
          + jobId + " refused)");
    }
    keys.put(jobId, new Key(LocalizedChannelKeys.mask(maskedKey, relaySecret, jobId),
        now + KEY_LEASE_MILLIS));
  }

  @Override
  public synchronized void forgetJob(String jobId) {
    keys.remove(jobId);
  }

  public synchronized int jobs() {
    expire(clock.getAsLong());
    return keys.size();
  }

  @Override
  public synchronized byte[] retrievePassword(LocalizedTokenIdentifier identity)
      throws InvalidToken {
    if (identity.isRelay()) {
      if (relaySecret == null) {
        throw new InvalidToken("mpCache: this DataNode has no relay secret");
      }
      return relaySecret.clone();
    }
    expire(clock.getAsLong());
    Key key = keys.get(identity.jobId());
    if (key == null) {
      throw new InvalidToken("mpCache: no key for " + identity.jobId() + " on this node: the"
          + " NodeManager's relay has not handed it over (docs/security.md)");
    }
    return key.key().clone();
  }

  private void expire(long nowMillis) {
    keys.values().removeIf(key -> key.expiresMillis() <= nowMillis);
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
