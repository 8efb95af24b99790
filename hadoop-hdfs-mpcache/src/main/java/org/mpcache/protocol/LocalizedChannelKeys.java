package org.mpcache.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;


/**
 * The keys tasks prove their job with on the localized-space channel (docs/security.md,
 * "The localized-space channel"). A job's channel key derives from the job's shuffle secret, which
 * YARN hands each of the job's tasks and, through the shuffle service's application data, each
 * NodeManager that runs them: the NodeManager's relay can pass the key on to the DataNode
 * without the shuffle secret itself ever leaving the NodeManager.
 */
public final class LocalizedChannelKeys {
  private static final String HMAC = "HmacSHA256";
  /** Binds the key to this channel: the same secret keyed for another use gives another key. */
  private static final String CONTEXT = "mpcache-localized-v1:";

  private LocalizedChannelKeys() {
  }

  /** The key the tasks of {@code jobId} prove their job with, from its shuffle secret. */
  public static byte[] jobKey(byte[] shuffleSecret, String jobId) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(shuffleSecret, HMAC));
      return mac.doFinal((CONTEXT + jobId).getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JVM lacks " + HMAC, e); // every JVM has it
    }
  }
}
