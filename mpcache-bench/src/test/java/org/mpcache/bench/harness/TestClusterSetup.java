package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.policy.ReplacementPolicies;

class TestClusterSetup {
  /** The harness names policies as the master's key does: one registry. */
  @Test
  void everyMpCacheConfigurationRunsAPolicyTheMasterKnows() {
    for (ClusterSetup setup : ClusterSetup.values()) {
      assertEquals(setup, ClusterSetup.of(setup.label()));
      if (setup.mpCache()) {
        ReplacementPolicies.check(setup.policy());
      }
    }
    assertEquals(MpCacheConfigKeys.DFS_MPCACHE_MASTER_POLICY_DEFAULT, ClusterSetup.MPCACHE.policy(),
        "the product's configuration runs the master's default policy");
  }

  /**
   * The simulator's room for input is the running slave's: a 33 MB cache of 8 MB blocks holds 4
   * blocks of input alone, but 3 when its Localized Cache keeps 6 of its 64 units.
   */
  @Test
  void localizedDataOnTheSsdLeavesInputAllButTheLocalizedCachesOwnUnits() {
    long block = 8L << 20;
    long cache = 33L << 20;
    assertEquals(cache, ClusterSetup.MPCACHE_INPUT_ONLY.inputCeilingBytes(cache, block));
    long unit = cache / 64;
    assertEquals(58 * unit, ClusterSetup.MPCACHE.inputCeilingBytes(cache, block));
    assertEquals(3, ClusterSetup.MPCACHE.inputCeilingBytes(cache, block) / block);
    assertEquals(4, ClusterSetup.MPCACHE_INPUT_ONLY.inputCeilingBytes(cache, block) / block);
  }
}
