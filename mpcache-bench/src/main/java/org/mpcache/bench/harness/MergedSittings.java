package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.mpcache.bench.harness.JobPairs.Stratum;

/**
 * The results folders of several sittings as one result set ({@code --merge}): a machine's speed
 * drifts between days, so each job keeps its folder's name as its sitting and pairs only with the
 * baseline's jobs of that sitting (docs/benchmarks.md, "Sittings merged").
 */
final class MergedSittings {
  /** The jobs a merge counts, and a line for each stream it leaves out. */
  record Merge(List<JobResult> jobs, List<String> leftOut) {
  }

  /**
   * A results folder to merge and the configurations taken from it, all when {@code only} is
   * empty; the baseline's streams always, since they are what the others pair with.
   */
  record Folder(File dir, Set<ClusterSetup> only) {
    /**
     * {@code DIR}, or {@code DIR:CONFIG+CONFIG} to take only those configurations from it (a
     * sitting whose other streams ran code the report must not mix in).
     */
    static Folder parse(String spec) {
      int colon = spec.lastIndexOf(':');
      if (colon < 0) {
        return new Folder(new File(spec).getAbsoluteFile(), Set.of());
      }
      Set<ClusterSetup> only = EnumSet.noneOf(ClusterSetup.class);
      Arrays.stream(spec.substring(colon + 1).split("\\+")).map(ClusterSetup::of)
          .forEach(only::add);
      return new Folder(new File(spec.substring(0, colon)).getAbsoluteFile(), only);
    }

    private boolean takes(JobResult job, ClusterSetup baseline) {
      return only.isEmpty() || job.setup() == baseline || only.contains(job.setup());
    }
  }

  /** A configuration's stream of a seed, whichever sitting ran it. */
  private record Stream(ClusterSetup setup, long seed) {
    static Stream of(JobResult job) {
      return new Stream(job.setup(), job.seed());
    }
  }

  private MergedSittings() {
  }

  /**
   * The jobs of the folders' finished streams of the configurations they are taken for, each
   * tagged with its folder's name, counted as {@link #countedOnce} says; all must have been run
   * with {@code settings}.
   *
   * @throws IllegalArgumentException where a folder holds no results or other settings, or two
   *     folders have one name
   */
  static Merge of(List<Folder> folders, Map<String, String> settings, ClusterSetup baseline)
      throws IOException {
    Set<String> names = new HashSet<>();
    List<JobResult> jobs = new ArrayList<>();
    Set<String> notTaken = new LinkedHashSet<>();
    for (Folder folder : folders) {
      String name = folder.dir().getName();
      if (!names.add(name)) {
        throw new IllegalArgumentException("two folders to merge are called " + name
            + ": their jobs would pair as one sitting's");
      }
      for (JobResult job : new ResultsFolder(folder.dir()).sitting(settings)) {
        if (folder.takes(job, baseline)) {
          jobs.add(job);
        } else {
          notTaken.add(named(job) + " (not named for " + name + ")");
        }
      }
    }
    Merge merge = countedOnce(jobs, baseline);
    List<String> leftOut = new ArrayList<>(notTaken);
    leftOut.addAll(merge.leftOut());
    return new Merge(merge.jobs(), List.copyOf(leftOut));
  }

  /**
   * Of jobs tagged with their sittings, in the folders' order: a configuration's stream of a
   * seed, the {@code baseline}'s aside, counts once, so that no seed weighs twice in its ratios:
   * from the first sitting that ran it beside the baseline's stream of that seed, else from the
   * first that ran it. A sitting's baseline stream of a seed counts where it is the reference of
   * one of those.
   */
  static Merge countedOnce(List<JobResult> jobs, ClusterSetup baseline) {
    Set<Stratum> withBaseline = jobs.stream().filter(job -> job.setup() == baseline)
        .map(Stratum::of).collect(Collectors.toSet());
    Map<Stream, String> counted = new HashMap<>();
    for (JobResult job : jobs) {
      if (job.setup() != baseline) {
        String chosen = counted.get(Stream.of(job));
        if (chosen == null || (!withBaseline.contains(new Stratum(job.seed(), chosen))
            && withBaseline.contains(Stratum.of(job)))) {
          counted.put(Stream.of(job), job.sitting());
        }
      }
    }
    Set<Stratum> referenced = new HashSet<>();
    counted.forEach((stream, sitting) -> referenced.add(new Stratum(stream.seed(), sitting)));
    List<JobResult> kept = new ArrayList<>();
    Set<String> leftOut = new LinkedHashSet<>();
    for (JobResult job : jobs) {
      if (job.setup() == baseline ? referenced.contains(Stratum.of(job))
          : counted.get(Stream.of(job)).equals(job.sitting())) {
        kept.add(job);
      } else {
        leftOut.add(named(job)
            + (job.setup() == baseline ? " (nothing of that sitting pairs with it)"
                : " (" + counted.get(Stream.of(job)) + "'s counts)"));
      }
    }
    return new Merge(kept, List.copyOf(leftOut));
  }

  /** "mpcache seed 1 of a": a job's stream in a sitting, as the left-out lines name it. */
  private static String named(JobResult job) {
    return job.setup().label() + " seed " + job.seed() + " of " + job.sitting();
  }
}
