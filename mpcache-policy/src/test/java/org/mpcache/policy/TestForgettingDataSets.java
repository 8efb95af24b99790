package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.mpcache.simulator.SimulatorPolicies;

/**
 * Every policy forgets a data set that holds no copy, with its admission record, and refuses to
 * forget one that holds copies (the master then keeps its id).
 */
class TestForgettingDataSets {
  static final java.util.List<String> POLICIES = SimulatorPolicies.NAMES;

  @ParameterizedTest
  @FieldSource("POLICIES")
  void aDataSetIsForgottenOnlyWithoutCopies(String name) {
    ReplacementPolicy policy =
        ReplacementPolicies.create(name, 1.0, 0.01, SimulatorPolicies.EXPERIMENTS);
    policy.setCapacity(0, 4);
    DataSet cached = new DataSet(0, 2);
    DataSet readOnly = new DataSet(1, 2);
    policy.dataSetAccessed(cached);
    policy.access(0, 1, cached);
    policy.restore(0, 2, cached);
    policy.dataSetAccessed(readOnly);

    assertFalse(policy.forgetDataSet(cached.id()), "it holds copies");
    assertTrue(policy.isCached(0, 2));
    assertTrue(policy.forgetDataSet(readOnly.id()));

    policy.removed(0, 1);
    policy.removed(0, 2);
    assertTrue(policy.forgetDataSet(cached.id()), "its last copy left");
    assertEquals(0, policy.trackedDataSets(), name + " keeps nothing of forgotten data sets");
    // A read may name another data set than the copy was cached under (its file moved): the
    // data set the policy files the copy under still cannot be forgotten.
    policy.restore(0, 20, new DataSet(2, 1));
    policy.access(0, 20, new DataSet(3, 1));
    int[] filedUnder = {-1};
    policy.forEachCached((node, block, dataSetId) -> filedUnder[0] = dataSetId);
    assertFalse(policy.forgetDataSet(filedUnder[0]), name + " forgot the data set of a copy");
    policy.removed(0, 20);
    policy.forgetDataSet(2);
    policy.forgetDataSet(3);
    // The id may now name another data set, which starts anew.
    policy.dataSetAccessed(new DataSet(0, 1));
    policy.restore(0, 7, new DataSet(0, 1));
    assertTrue(policy.isCached(0, 7));
  }
}
