package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The results folders of several sittings as one result set ({@code --merge}): a machine's speed
 * drifts between days, so each job keeps its folder's name as its sitting and pairs only with the
 * baseline's jobs of that sitting (docs/benchmarks.md, "Sittings merged").
 */
final class MergedSittings {
  private MergedSittings() {
  }

  /**
   * The jobs of the folders' finished streams, each tagged with its folder's name: they must all
   * have been run with {@code settings}. A configuration's stream of a seed, the
   * {@code baseline}'s aside, counts once, from the first folder that holds it, so that no seed
   * weighs twice in its ratios; a sitting's baseline stream of a seed counts where it is the
   * reference of one of those. What is left out is logged.
   *
   * @throws IllegalArgumentException where a folder holds no results or other settings, or two
   *     folders have one name
   */
  static List<JobResult> of(List<File> dirs, Map<String, String> settings, ClusterSetup baseline)
      throws IOException {
    Set<String> names = new HashSet<>();
    List<JobResult> jobs = new ArrayList<>();
    for (File dir : dirs) {
      if (!names.add(dir.getName())) {
        throw new IllegalArgumentException("two folders to merge are called " + dir.getName()
            + ": their jobs would pair as one sitting's");
      }
      jobs.addAll(new ResultsFolder(dir).sitting(settings));
    }
    Set<String> leftOut = new TreeSet<>();
    List<JobResult> counted = countedOnce(jobs, baseline, leftOut);
    leftOut.forEach(stream -> BenchmarkHarness.log("left out of the merge: %s", stream));
    return counted;
  }

  /** The rule of {@link #of} on jobs tagged with their sittings, in the folders' order. */
  private static List<JobResult> countedOnce(List<JobResult> jobs, ClusterSetup baseline,
      Set<String> leftOut) {
    Map<String, String> firstSitting = new TreeMap<>();
    Set<String> referenced = new HashSet<>();
    List<JobResult> others = new ArrayList<>();
    for (JobResult job : jobs) {
      if (job.setup() == baseline) {
        continue;
      }
      String stream = job.setup().label() + " seed " + job.seed();
      String first = firstSitting.putIfAbsent(stream, job.sitting());
      if (first == null || first.equals(job.sitting())) {
        others.add(job);
        referenced.add(job.sitting() + " seed " + job.seed());
      } else {
        leftOut.add(stream + " of " + job.sitting() + " (" + first + "'s counts)");
      }
    }
    List<JobResult> counted = new ArrayList<>();
    for (JobResult job : jobs) {
      if (job.setup() != baseline) {
        continue;
      }
      if (referenced.contains(job.sitting() + " seed " + job.seed())) {
        counted.add(job);
      } else {
        leftOut.add(baseline.label() + " seed " + job.seed() + " of " + job.sitting()
            + " (nothing of that sitting pairs with it)");
      }
    }
    counted.addAll(others);
    return counted;
  }
}
