package org.mpcache.policy;

import java.util.ArrayList;
import java.util.List;

/** Jobs as the policy tests run them: data sets whose blocks are numbered by their id. */
final class PolicyJobs {
  private PolicyJobs() {
  }

  /** Data set {@code id} of {@code blocks} blocks, numbered {@code id * 100 + i}. */
  static DataSet dataSet(int id, int blocks) {
    return new DataSet(id, blocks);
  }

  static long block(DataSet dataSet, int i) {
    return dataSet.id() * 100L + i;
  }

  /** A job: one data-set access, then every block read on the node. */
  static List<CacheDecision> job(ReplacementPolicy policy, int node, DataSet dataSet) {
    policy.dataSetAccessed(dataSet);
    List<CacheDecision> decisions = new ArrayList<>();
    for (int i = 0; i < dataSet.blocks(); i++) {
      decisions.add(policy.access(node, block(dataSet, i), dataSet));
    }
    return decisions;
  }

  /** {@code times} jobs over the data set, one after another, on the node. */
  static void jobs(ReplacementPolicy policy, int node, DataSet dataSet, int times) {
    for (int i = 0; i < times; i++) {
      job(policy, node, dataSet);
    }
  }
}
