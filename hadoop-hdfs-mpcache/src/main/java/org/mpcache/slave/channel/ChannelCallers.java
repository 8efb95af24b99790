package org.mpcache.slave.channel;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.protocol.LocalizedSpaceServerSideTranslatorPB.CallerCheck;
import org.mpcache.protocol.LocalizedTokenIdentifier;
import org.mpcache.slave.spacetuner.LocalizedLedger;

/**
 * Whom the localized-space channel takes each call from (docs/security.md, "The localized-space
 * channel"). With a relay secret, a task's call must come with its job's token (the RPC server
 * checked its password) and name an attempt of that job, and only the relay's token admits or
 * forgets jobs. Without one, attempts are taken as named and nobody admits jobs. The channel is
 * only reached over RPC: a call without a caller proves nothing.
 */
public final class ChannelCallers implements CallerCheck {
  private final boolean proofsRequired;
  private final AtomicLong refused = new AtomicLong();

  /** @param proofsRequired whether a relay secret is configured */
  public ChannelCallers(boolean proofsRequired) {
    this.proofsRequired = proofsRequired;
  }

  @Override
  public void checkTask(String attemptId) throws IOException {
    if (!proofsRequired) {
      return;
    }
    LocalizedTokenIdentifier identity = proven(Server.getRemoteUser());
    if (identity == null || !identity.jobId().equals(LocalizedLedger.jobOf(attemptId))) {
      refused.incrementAndGet();
      throw new AccessControlException("mpCache: a caller proving "
          + (identity == null ? "no job (no channel token)" : identity)
          + " may not act for attempt " + attemptId + "; a task proves its job with the key its"
          + " NodeManager's relay handed this DataNode (docs/security.md)");
    }
  }

  @Override
  public void checkRelay() throws IOException {
    if (!proofsRequired) {
      refused.incrementAndGet();
      throw new AccessControlException("mpCache: this DataNode takes no job keys: "
          + MpCacheConfigKeys.DFS_MPCACHE_LOCALIZED_RELAY_SECRET_FILE_KEY + " is not set");
    }
    LocalizedTokenIdentifier identity = proven(Server.getRemoteUser());
    if (identity == null || !identity.isRelay()) {
      refused.incrementAndGet();
      throw new AccessControlException("mpCache: only the NodeManager's relay, proving the relay"
          + " secret, admits or forgets jobs; the caller proved "
          + (identity == null ? "nothing (no channel token)" : identity));
    }
  }

  /** Calls refused since start (a failed token check never reaches here: the RPC server's). */
  public long refused() {
    return refused.get();
  }

  /**
   * The channel token the RPC server authenticated the caller with, if any. A caller that sent
   * no user at all (simple authentication allows it) has none.
   */
  private static LocalizedTokenIdentifier proven(UserGroupInformation caller) {
    if (caller == null) {
      return null;
    }
    for (TokenIdentifier identity : caller.getTokenIdentifiers()) {
      if (identity instanceof LocalizedTokenIdentifier channel) {
        return channel;
      }
    }
    return null;
  }
}
