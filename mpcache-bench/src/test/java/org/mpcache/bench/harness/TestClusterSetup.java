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
    double pool = MpCacheConfigKeys.DFS_MPCACHE_POOL_SHARE_DEFAULT;
    assertEquals(cache, ClusterSetup.MPCACHE_INPUT_ONLY.inputCeilingBytes(cache, block, pool));
    long unit = cache / 64;
    assertEquals(58 * unit, ClusterSetup.MPCACHE.inputCeilingBytes(cache, block, pool));
    assertEquals(3, ClusterSetup.MPCACHE.inputCeilingBytes(cache, block, pool) / block);
    assertEquals(4, ClusterSetup.MPCACHE_INPUT_ONLY.inputCeilingBytes(cache, block, pool)
        / block);
  }

  /**
   * A wider pool leaves input's ceiling where it was (input may fill every pool unit localized
   * data does not hold); only the Localized Cache's own units are never input's.
   */
  @Test
  void thePoolsShareMovesRoomBetweenInputsOwnUnitsAndThePoolNotInputsCeiling() {
    long block = 8L << 20;
    long cache = 33L << 20;
    assertEquals(ClusterSetup.MPCACHE.inputCeilingBytes(cache, block, 0.5),
        ClusterSetup.MPCACHE.inputCeilingBytes(cache, block, 0.8));
  }
}
