package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.mpcache.conf.MasterKeyEffects.Effect;

class TestMasterKeyEffects {
  @Test
  void changedKeysAreSortedByWhatBecomesOfThem() {
    Configuration before = new Configuration(false);
    before.set(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/a");
    before.set(DFS_MPCACHE_MASTER_POLICY_KEY, "wholeset");
    before.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn1", "h1:1");
    Configuration after = new Configuration(before);
    after.set(DFS_MPCACHE_MASTER_EXCLUDE_KEY, "/a, /b");
    after.set(DFS_MPCACHE_MASTER_PIN_SHARE_KEY, "0.2");
    after.set(DFS_MPCACHE_MASTER_POLICY_KEY, " wholeset "); // the same, trimmed
    after.set(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, "0");
    after.set(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn1", "h2:1");
    after.set(DFS_MPCACHE_MASTER_HANDLERS_KEY, "20");
    after.set(DFS_MPCACHE_HEARTBEAT_KEY, "1s"); // a slave's key: not the master's
    after.set(DFS_MPCACHE_MASTER_TIMEOUT_KEY, "5s"); // the slaves' and clients' key
    Map<Effect, List<String>> changed = MasterKeyEffects.changed(
        MasterKeyEffects.values(before), MasterKeyEffects.values(after));
    assertEquals(List.of(DFS_MPCACHE_MASTER_EXCLUDE_KEY, DFS_MPCACHE_MASTER_PIN_SHARE_KEY),
        changed.get(Effect.APPLIED));
    assertEquals(List.of(DFS_MPCACHE_MASTER_FULL_BONUS_KEY), changed.get(Effect.FRESH_MASTER));
    assertEquals(List.of(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn1",
        DFS_MPCACHE_MASTER_HANDLERS_KEY), changed.get(Effect.NEED_RESTART));
  }

  /** Each key MasterSettings reads has an effect, so that no change goes unreported. */
  @Test
  void everyKeyOfTheMastersSettingsHasAnEffect() {
    for (String key : MpCacheKeyRegistry.keys()) {
      if (key.startsWith("dfs.mpcache.master.") && !key.equals(DFS_MPCACHE_MASTER_TIMEOUT_KEY)) {
        assertNotNull(MasterKeyEffects.of(key), key);
      }
    }
    assertTrue(MasterKeyEffects.of(DFS_MPCACHE_MASTER_TIMEOUT_KEY) == null,
        "the RPC timeout is the slaves' and clients' key");
  }
}
