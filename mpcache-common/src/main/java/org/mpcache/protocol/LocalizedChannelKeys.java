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
  private static final String MASK_CONTEXT = "mpcache-relay-mask-v1:";
  /** A job key's length: an HMAC-SHA256. */
  public static final int KEY_BYTES = 32;

  private LocalizedChannelKeys() {
  }

  /** The key the tasks of {@code jobId} prove their job with, from its shuffle secret. */
  public static byte[] jobKey(byte[] shuffleSecret, String jobId) {
    return hmac(shuffleSecret, CONTEXT + jobId);
  }

  /**
   * The job key XOR a pad only holders of the relay secret can make, one per job: the relay
   * sends a key masked, the DataNode masks it again to read it. A peer that is not the DataNode
   * (a process that took the channel's port while the DataNode was down) learns nothing from it.
   */
  public static byte[] mask(byte[] key, byte[] relaySecret, String jobId) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException("a job key is " + KEY_BYTES + " bytes, not "
          + key.length);
    }
    byte[] pad = hmac(relaySecret, MASK_CONTEXT + jobId);
    byte[] masked = new byte[KEY_BYTES];
    for (int i = 0; i < KEY_BYTES; i++) {
      masked[i] = (byte) (key[i] ^ pad[i]);
    }
    return masked;
  }

  private static byte[] hmac(byte[] secret, String message) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(secret, HMAC));
      return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JVM lacks " + HMAC, e); // every JVM has it
    }
  }
}
