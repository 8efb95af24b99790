package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.Comparator;
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
 * The timed jobs of a result set by configuration, stratum and index, paired across
 * configurations: every configuration runs the same job stream of a seed, so a job is compared
 * with the job of the same seed and index in the other configuration, run in the same sitting
 * (a report merging several folders pairs within each, since a machine's speed drifts between
 * days).
 */
final class JobPairs {
  /** The same job of a stream run in a reference configuration and in another one. */
  record Pair(JobResult reference, JobResult job) {
  }

  /**
   * The jobs that pair with each other: those of one seed run in one sitting (the folder's own
   * runs are the sitting with no name).
   */
  record Stratum(long seed, String sitting) implements Comparable<Stratum> {
    private static final Comparator<Stratum> ORDER =
        Comparator.comparingLong(Stratum::seed).thenComparing(Stratum::sitting);

    static Stratum of(JobResult job) {
      return new Stratum(job.seed(), job.sitting());
    }

    @Override
    public int compareTo(Stratum other) {
      return ORDER.compare(this, other);
    }

    /** "seed 1", or "seed 1 (stream-2026-11-27)" where the report merges sittings. */
    String label() {
      return "seed " + name();
    }

    /** "1", or "1 (stream-2026-11-27)" where the report merges sittings. */
    String name() {
      return seed + (sitting.isEmpty() ? "" : " (" + sitting + ")");
    }
  }

  private final Map<ClusterSetup, SortedMap<Stratum, SortedMap<Integer, JobResult>>> jobs =
      new EnumMap<>(ClusterSetup.class);
  /** Jobs met a second time (merged result files that overlap); the first one counts. */
  private final List<JobResult> duplicates = new ArrayList<>();

  JobPairs(List<JobResult> results) {
    for (JobResult job : results) {
      JobResult first = jobs.computeIfAbsent(job.setup(), s -> new TreeMap<>())
          .computeIfAbsent(Stratum.of(job), s -> new TreeMap<>()).putIfAbsent(job.index(), job);
      if (first != null) {
        duplicates.add(job);
      }
    }
  }

  /** Every seed some configuration ran, ascending. */
  SortedSet<Long> seeds() {
    return strata().stream().map(Stratum::seed).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Every seed and sitting some configuration ran, ascending. */
  SortedSet<Stratum> strata() {
    SortedSet<Stratum> strata = new TreeSet<>();
    jobs.values().forEach(byStratum -> strata.addAll(byStratum.keySet()));
    return strata;
  }

  /** Whether the jobs come from several sittings ({@code --merge}). */
  boolean merged() {
    return strata().stream().anyMatch(stratum -> !stratum.sitting().isEmpty());
  }

  /** The jobs of {@code setup}, by seed, sitting and index. */
  List<JobResult> of(ClusterSetup setup) {
    return byStratum(setup).values().stream().flatMap(byIndex -> byIndex.values().stream())
        .toList();
  }

  /** Per stratum (ascending), the jobs both configurations ran, in the order of the stream. */
  SortedMap<Stratum, List<Pair>> between(ClusterSetup reference, ClusterSetup setup) {
    SortedMap<Stratum, List<Pair>> pairs = new TreeMap<>();
    byStratum(setup).forEach((stratum, byIndex) -> {
      SortedMap<Integer, JobResult> references = byStratum(reference).getOrDefault(stratum,
          new TreeMap<>());
      List<Pair> ofStratum = byIndex.values().stream()
          .filter(j -> references.containsKey(j.index()))
          .map(j -> new Pair(references.get(j.index()), j)).toList();
      if (!ofStratum.isEmpty()) {
        pairs.put(stratum, ofStratum);
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
    for (Stratum stratum : strata()) {
      SortedMap<Integer, JobResult> references = byStratum(reference).getOrDefault(stratum,
          new TreeMap<>());
      SortedMap<Integer, JobResult> own = byStratum(setup).getOrDefault(stratum,
          new TreeMap<>());
      if (own.isEmpty() && ranElsewhere(setup, stratum)) {
        continue; // merged sittings: the seed's jobs of this configuration are in another one
      }
      String where = setup.label() + " " + stratum.label() + ": ";
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
        .collect(Collectors.groupingBy(Stratum::of, TreeMap::new,
            Collectors.mapping(JobResult::index, Collectors.toCollection(TreeSet::new))))
        .forEach((stratum, indexes) -> gaps.add(setup.label() + " " + stratum.label() + ": "
            + jobList(indexes) + " more than once (the first counts)"));
    return gaps;
  }

  /** Whether {@code setup} ran the stratum's seed in another sitting. */
  private boolean ranElsewhere(ClusterSetup setup, Stratum stratum) {
    return byStratum(setup).keySet().stream()
        .anyMatch(other -> other.seed() == stratum.seed() && !other.equals(stratum));
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

  private SortedMap<Stratum, SortedMap<Integer, JobResult>> byStratum(ClusterSetup setup) {
    return jobs.getOrDefault(setup, new TreeMap<>());
  }
}
