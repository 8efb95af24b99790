package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import org.mpcache.bench.harness.JobPairs.Pair;
import org.mpcache.bench.harness.JobPairs.Stratum;
import org.mpcache.bench.harness.Stats.Fraction;
import org.mpcache.simulator.Interval;

/**
 * A configuration's jobs against the same jobs in a reference configuration: the reference's
 * times over the configuration's (above 1: the configuration is faster), with 95 % intervals.
 *
 * @param throughput sum of the reference's job seconds over the configuration's
 * @param geometricMean of the per-job ratios
 * @param mapPhase sum of the reference's map-phase seconds over the configuration's
 * @param reducePhase the same for the reduce phases, over the jobs whose reduce phase took time
 *     in the reference (map-only jobs have none)
 * @param throughputByStratum the throughput ratio of each seed's jobs alone (of each sitting's,
 *     where a report merges several)
 * @param overStreams the mean of those per-stream throughput ratios with a Student t interval
 *     over them: whole streams as the observations, since consecutive jobs of a stream share
 *     the cache's state and are not independent (no ends under two streams)
 * @param byBenchmark geometric mean of the per-job ratios of each benchmark's jobs
 */
record Comparison(Interval throughput, Interval geometricMean, Interval mapPhase,
    Interval reducePhase, SortedMap<Stratum, Interval> throughputByStratum,
    Interval overStreams, Map<String, Interval> byBenchmark) {

  static Comparison of(SortedMap<Stratum, List<Pair>> pairs) {
    SortedMap<Stratum, Interval> byStratum = new TreeMap<>();
    pairs.forEach((stratum, ofStratum) -> byStratum.put(stratum,
        throughput(new TreeMap<>(Map.of(stratum, ofStratum)), JobResult::seconds)));
    Map<String, List<Double>> ratiosByBenchmark = new LinkedHashMap<>();
    pairs.values().stream().flatMap(List::stream).forEach(pair -> ratiosByBenchmark
        .computeIfAbsent(pair.job().benchmark(), b -> new ArrayList<>())
        .add(ratio(pair)));
    Map<String, Interval> byBenchmark = new LinkedHashMap<>();
    ratiosByBenchmark.forEach((benchmark, ratios) ->
        byBenchmark.put(benchmark, Stats.geometricMean(ratios)));
    return new Comparison(throughput(pairs, JobResult::seconds),
        Stats.geometricMean(pairs.values().stream().flatMap(List::stream)
            .map(Comparison::ratio).toList()),
        throughput(pairs, JobResult::mapSeconds),
        throughput(only(pairs, pair -> pair.reference().reduceSeconds() > 0),
            JobResult::reduceSeconds),
        byStratum, Interval.ofMean(byStratum.values().stream().mapToDouble(Interval::estimate)
            .toArray()), byBenchmark);
  }

  /** Sum of the reference's {@code time} over the configuration's, resampling within strata. */
  static Interval throughput(SortedMap<Stratum, List<Pair>> pairs,
      ToDoubleFunction<JobResult> time) {
    return Stats.ratioOfSums(fractions(pairs, time));
  }

  /** The pairs' times as fractions, reference over configuration, by stratum. */
  static List<List<Fraction>> fractions(SortedMap<Stratum, List<Pair>> pairs,
      ToDoubleFunction<JobResult> time) {
    return pairs.values().stream().map(ofStratum -> ofStratum.stream()
        .map(pair -> new Fraction(time.applyAsDouble(pair.reference()),
            time.applyAsDouble(pair.job()))).toList()).toList();
  }

  /** The pairs that {@code which} keeps, strata left without any dropped. */
  static SortedMap<Stratum, List<Pair>> only(SortedMap<Stratum, List<Pair>> pairs,
      Predicate<Pair> which) {
    SortedMap<Stratum, List<Pair>> kept = new TreeMap<>();
    pairs.forEach((stratum, ofStratum) -> {
      List<Pair> ofStratumKept = ofStratum.stream().filter(which).toList();
      if (!ofStratumKept.isEmpty()) {
        kept.put(stratum, ofStratumKept);
      }
    });
    return kept;
  }

  private static double ratio(Pair pair) {
    return pair.reference().seconds() / pair.job().seconds();
  }
}
