package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The timed jobs of a result set by configuration, seed and index, paired across configurations:
 * every configuration runs the same job stream of a seed, so a job is compared with the job of
 * the same seed and index in the other configuration.
 */
final class JobPairs {
  /** The same job of a stream run in a reference configuration and in another one. */
  record Pair(JobResult reference, JobResult job) {
  }

  private final Map<ClusterSetup, SortedMap<Long, SortedMap<Integer, JobResult>>> jobs =
      new EnumMap<>(ClusterSetup.class);
  /** Jobs met a second time (merged result files that overlap); the first one counts. */
  private final List<JobResult> duplicates = new ArrayList<>();

  JobPairs(List<JobResult> results) {
    for (JobResult job : results) {
      JobResult first = jobs.computeIfAbsent(job.setup(), s -> new TreeMap<>())
          .computeIfAbsent(job.seed(), s -> new TreeMap<>()).putIfAbsent(job.index(), job);
      if (first != null) {
        duplicates.add(job);
      }
    }
  }

  /** Every seed some configuration ran, ascending. */
  SortedSet<Long> seeds() {
    SortedSet<Long> seeds = new TreeSet<>();
    jobs.values().forEach(bySeed -> seeds.addAll(bySeed.keySet()));
    return seeds;
  }

  /** The jobs of {@code setup}, by seed then index. */
  List<JobResult> of(ClusterSetup setup) {
    return bySeed(setup).values().stream().flatMap(byIndex -> byIndex.values().stream())
        .toList();
  }

  /** Per seed (ascending), the jobs both configurations ran, in the order of the stream. */
  SortedMap<Long, List<Pair>> between(ClusterSetup reference, ClusterSetup setup) {
    SortedMap<Long, List<Pair>> pairs = new TreeMap<>();
    bySeed(setup).forEach((seed, byIndex) -> {
      SortedMap<Integer, JobResult> references = bySeed(reference).getOrDefault(seed,
          new TreeMap<>());
      List<Pair> ofSeed = byIndex.values().stream().filter(j -> references.containsKey(j.index()))
          .map(j -> new Pair(references.get(j.index()), j)).toList();
      if (!ofSeed.isEmpty()) {
        pairs.put(seed, ofSeed);
      }
    });
    return pairs;
  }

  /**
   * What keeps {@code setup}'s jobs from pairing one to one with {@code reference}'s, a line
   * per problem: jobs one of them lacks, pairs that are not the same job, jobs met twice. Empty
   * when the pairing is complete.
   */
  List<String> gaps(ClusterSetup reference, ClusterSetup setup) {
    List<String> gaps = new ArrayList<>();
    for (long seed : seeds()) {
      SortedMap<Integer, JobResult> references = bySeed(reference).getOrDefault(seed,
          new TreeMap<>());
      SortedMap<Integer, JobResult> own = bySeed(setup).getOrDefault(seed, new TreeMap<>());
      String where = setup.label() + " seed " + seed + ": ";
      SortedSet<Integer> missing = new TreeSet<>(references.keySet());
      missing.removeAll(own.keySet());
      if (!missing.isEmpty()) {
        gaps.add(where + jobList(missing) + " missing");
      }
      SortedSet<Integer> unpaired = new TreeSet<>(own.keySet());
      unpaired.removeAll(references.keySet());
      if (!unpaired.isEmpty()) {
        gaps.add(where + jobList(unpaired) + " not run by " + reference.label());
      }
      for (JobResult job : own.values()) {
        JobResult same = references.get(job.index());
        if (same != null && !(same.benchmark().equals(job.benchmark())
            && same.input().equals(job.input()))) {
          gaps.add(String.format(Locale.ROOT, "%sjob %d is %s on %s, %s's is %s on %s", where,
              job.index(), job.benchmark(), job.input(), reference.label(), same.benchmark(),
              same.input()));
        }
      }
    }
    duplicates.stream().filter(job -> job.setup() == setup)
        .collect(Collectors.groupingBy(JobResult::seed, TreeMap::new,
            Collectors.mapping(JobResult::index, Collectors.toCollection(TreeSet::new))))
        .forEach((seed, indexes) -> gaps.add(setup.label() + " seed " + seed + ": "
            + jobList(indexes) + " more than once (the first counts)"));
    return gaps;
  }

  /** "job 3", "jobs 0–29, 31": indexes with runs of consecutive ones as ranges. */
  static String jobList(SortedSet<Integer> indexes) {
    List<String> runs = new ArrayList<>();
    Integer start = null;
    Integer previous = null;
    for (int index : indexes) {
      if (previous == null || index != previous + 1) {
        if (start != null) {
          runs.add(run(start, previous));
        }
        start = index;
      }
      previous = index;
    }
    if (start != null) {
      runs.add(run(start, previous));
    }
    return (indexes.size() == 1 ? "job " : "jobs ") + String.join(", ", runs);
  }

  private static String run(int first, int last) {
    if (first == last) {
      return Integer.toString(first);
    }
    return first + (last == first + 1 ? ", " : "–") + last;
  }

  private SortedMap<Long, SortedMap<Integer, JobResult>> bySeed(ClusterSetup setup) {
    return jobs.getOrDefault(setup, new TreeMap<>());
  }
}
