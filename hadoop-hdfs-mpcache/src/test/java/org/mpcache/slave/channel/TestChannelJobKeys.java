package org.mpcache.slave.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.junit.jupiter.api.Test;
import org.mpcache.protocol.LocalizedChannelKeys;
import org.mpcache.protocol.LocalizedRelayProtocol;
import org.mpcache.protocol.LocalizedTokenIdentifier;

/** The job keys a DataNode holds for its channel: read from the relay's masked form, bounded, and lapsing. */
class TestChannelJobKeys {
  private static final byte[] RELAY_SECRET =
      "relay-secret-of-the-unit-test".getBytes(StandardCharsets.UTF_8);
  private final AtomicLong now = new AtomicLong(1_000);
  private final ChannelJobKeys keys = new ChannelJobKeys(RELAY_SECRET, now::get);

  private static byte[] key(String job) {
    return LocalizedChannelKeys.jobKey(("shuffle secret of " + job)
        .getBytes(StandardCharsets.UTF_8), job);
  }

  private void admit(String job) throws IOException {
    keys.admitJob(job, LocalizedChannelKeys.mask(key(job), RELAY_SECRET, job));
  }

  @Test
  void aTaskProvesTheKeyTheRelayMaskedAndAKeyLapsesUnlessAdmittedAgain() throws Exception {
    admit("job_1_0001");
    LocalizedTokenIdentifier tasks = LocalizedTokenIdentifier.ofJob("job_1_0001");
    assertArrayEquals(key("job_1_0001"), keys.retrievePassword(tasks));
    now.addAndGet(LocalizedRelayProtocol.KEY_LEASE_MILLIS - 1);
    admit("job_1_0001"); // the relay's resend
    now.addAndGet(LocalizedRelayProtocol.KEY_LEASE_MILLIS - 1);
    assertArrayEquals(key("job_1_0001"), keys.retrievePassword(tasks));
    now.addAndGet(1);
    InvalidToken lapsed = assertThrows(InvalidToken.class, () -> keys.retrievePassword(tasks));
    assertTrue(lapsed.getMessage().contains("has not handed it over"), lapsed.getMessage());
    assertEquals(0, keys.jobs());
  }

  @Test
  void aKeyMaskedWithAnotherSecretIsNotTheJobsKey() throws Exception {
    assertFalse(Arrays.equals(key("job_1_0001"),
        LocalizedChannelKeys.mask(key("job_1_0001"), RELAY_SECRET, "job_1_0001")),
        "what the relay sends is not the key");
    keys.admitJob("job_1_0001", LocalizedChannelKeys.mask(key("job_1_0001"),
        "another-relay-secret!".getBytes(StandardCharsets.UTF_8), "job_1_0001"));
    byte[] read = keys.retrievePassword(LocalizedTokenIdentifier.ofJob("job_1_0001"));
    assertFalse(Arrays.equals(key("job_1_0001"), read));
  }

  @Test
  void atMostMaxJobsHoldKeys() throws Exception {
    for (int job = 0; job < ChannelJobKeys.MAX_JOBS; job++) {
      admit(String.format("job_1_%04d", job));
    }
    IOException full = assertThrows(IOException.class, () -> admit("job_2_0001"));
    assertTrue(full.getMessage().contains("jobs already hold keys"), full.getMessage());
    keys.forgetJob("job_1_0000");
    admit("job_2_0001");
    now.addAndGet(LocalizedRelayProtocol.KEY_LEASE_MILLIS);
    assertEquals(0, keys.jobs(), "all lapsed");
  }
}
