package org.mpcache.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.simulator.PolicySimulator;
import org.mpcache.simulator.Trace;
import org.mpcache.simulator.TraceJob;

/**
 * The running system matches the policy simulator, its specification: a short trace replayed on
 * a real cluster one read at a time, each admission settled before the next read, hits and
 * misses the same read for read, and the same evictions.
 */
@Timeout(600)
class TestTraceReplay {
  /** 4 nodes, 6 blocks of cache each; 4 GB blocks make data sets of 1 to 22 blocks. */
  private static final Trace TRACE = Trace.generate(
      new PolicySimulator.Settings(4, 1, 30, 1.5, 6 * 4096, 4096, 3));

  @ParameterizedTest
  @ValueSource(strings = {"mpcache", "lfu", "wholeset"})
  void theReplayedHitsAreTheSimulatorsReadForRead(String policy) throws Exception {
    List<List<String>> simulated = new ArrayList<>();
    PolicySimulator.Result sim = PolicySimulator.run(TRACE,
        ReplacementPolicies.create(policy, 1.0, 0.01), (job, block, node, decision) -> {
          while (simulated.size() <= job) {
            simulated.add(new ArrayList<>());
          }
          simulated.get(job).add(node + (decision.hit() ? " hit" : " miss"));
        });
    assertTrue(sim.blockHits() > 0 && sim.blockHits() < sim.blockAccesses(),
        "a trace with hits and misses: " + sim);
    assertTrue(sim.evictedForRoom() > 0, "a trace with evictions: " + sim);

    try (TraceReplay replay = new TraceReplay(TRACE, policy, 16 << 10, 0, "trace-replay")) {
      int index = 0;
      for (TraceJob job : TRACE) {
        TraceReplay.JobOutcome outcome = replay.replay(job);
        List<String> replayed = new ArrayList<>();
        for (int i = 0; i < job.dataSet().blocks(); i++) {
          replayed.add(outcome.readerNodes()[i] + (outcome.readHits()[i] ? " hit" : " miss"));
        }
        assertEquals(simulated.get(index), replayed, "reads of job " + index + " over data set "
            + job.dataSet());
        index++;
      }
      assertEquals(sim.evictedForRoom(), replay.masterCounter(MasterCounter.EVICTIONS_FOR_ROOM));
      assertEquals(sim.evictedElsewhere(),
          replay.masterCounter(MasterCounter.EVICTIONS_OF_DATA_SETS_ELSEWHERE));
    }
  }
}
