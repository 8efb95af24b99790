package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(ReplacementPolicies.isKnown(setup.policy()), setup + ": " + setup.policy());
      }
    }
    assertEquals(MpCacheConfigKeys.DFS_MPCACHE_MASTER_POLICY_DEFAULT, ClusterSetup.MPCACHE.policy(),
        "the product's configuration runs the master's default policy");
  }
}
