package org.mpcache.simulator;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.apache.commons.math3.distribution.TDistribution;
import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;

/**
 * Policies over many seeds, side by side (docs/policies.md, "Evaluation"): a row per policy and
 * seed in a CSV, written as each run ends, which a later run with the same settings resumes
 * (one with other settings is refused); then each policy's mean job and block hit ratios with
 * 95 % Student t intervals beside the bounds', and the paired per-seed differences of every
 * policy against the first one listed.
 */
final class SimulatorRuns {
  static final String HEADER = "policy,seed,nodes,tenants,jobs,s,cache_mb,block_mb,block_hit,"
      + "job_hit,block_bound,job_bound,seconds";

  /** One policy on one seed; {@code settings} is the row's settings columns, seed excluded. */
  record Row(String policy, long seed, String settings, double blockHit, double jobHit,
      double blockBound, double jobBound, double seconds) {
    String csv() {
      return String.format(Locale.ROOT, "%s,%d,%s,%.6f,%.6f,%.6f,%.6f,%.2f", policy, seed,
          settings, blockHit, jobHit, blockBound, jobBound, seconds);
    }

    static Row parse(String line) {
      String[] f = line.split(",");
      if (f.length != 13) {
        throw new IllegalArgumentException("expected 13 fields, got " + f.length);
      }
      return new Row(f[0], Long.parseLong(f[1]), String.join(",", List.of(f).subList(2, 8)),
          Double.parseDouble(f[8]), Double.parseDouble(f[9]), Double.parseDouble(f[10]),
          Double.parseDouble(f[11]), Double.parseDouble(f[12]));
    }
  }

  private SimulatorRuns() {
  }

  /** The settings columns of a row: what runs must share to be compared. */
  static String settingsColumns(PolicySimulator.Settings s) {
    return String.format(Locale.ROOT, "%d,%d,%d,%s,%d,%d", s.nodes(), s.tenants(), s.jobs(),
        s.zipfS(), s.cacheMbPerNode(), s.blockMb());
  }

  /**
   * Runs every policy on every seed not yet in {@code csv}, appending a row each, and returns
   * the rows of these seeds and policies.
   */
  static List<Row> run(PolicySimulator.Settings base, List<Long> seeds, List<String> policies,
      Path csv, PrintStream progress) throws IOException {
    String settings = settingsColumns(base);
    List<Row> rows = read(csv, settings);
    if (!Files.exists(csv)) {
      Files.writeString(csv, HEADER + "\n", StandardCharsets.UTF_8);
    }
    for (long seed : seeds) {
      Trace trace = null;
      double blockBound = Double.NaN;
      double jobBound = Double.NaN;
      for (String policy : policies) {
        if (find(rows, policy, seed) != null) {
          continue;
        }
        if (trace == null) {
          trace = Trace.generate(new PolicySimulator.Settings(base.nodes(), base.tenants(),
              base.jobs(), base.zipfS(), base.cacheMbPerNode(), base.blockMb(), seed));
          blockBound = OfflineBound.run(trace).blockHitRatio();
          jobBound = (double) JobBound.jobHits(trace, 0) / trace.jobs();
        }
        PolicySimulator.Result result = PolicySimulator.run(trace, ReplacementPolicies.create(
            policy, MpCachePolicy.DEFAULT_FULL_BONUS, AdmissionControl.BACK_TO_BACK_DISTANCE));
        Row row = new Row(policy, seed, settings, result.blockHitRatio(), result.jobHitRatio(),
            blockBound, jobBound, result.seconds());
        rows.add(row);
        try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8,
            StandardOpenOption.APPEND)) {
          out.write(row.csv() + "\n");
        }
        progress.printf(Locale.ROOT, "seed %d %s: job hits %.1f %%, block hits %.1f %% (%.0f s)%n",
            seed, policy, 100 * row.jobHit(), 100 * row.blockHit(), row.seconds());
      }
    }
    List<Row> asked = new ArrayList<>();
    for (Row row : rows) {
      if (seeds.contains(row.seed()) && policies.contains(row.policy())) {
        asked.add(row);
      }
    }
    return asked;
  }

  /** The rows of {@code csv} (none when it does not exist); other settings are refused. */
  static List<Row> read(Path csv, String settings) throws IOException {
    List<Row> rows = new ArrayList<>();
    if (!Files.exists(csv)) {
      return rows;
    }
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IOException(csv + " is not a simulator results file (header " + HEADER + ")");
    }
    for (int i = 1; i < lines.size(); i++) {
      Row row;
      try {
        row = Row.parse(lines.get(i));
      } catch (RuntimeException e) {
        throw new IOException(csv + ":" + (i + 1) + ": malformed row (" + e.getMessage() + ")",
            e);
      }
      if (!row.settings().equals(settings)) {
        throw new IOException(csv + " holds runs with other settings (nodes,tenants,jobs,s,"
            + "cache_mb,block_mb = " + row.settings() + ", this run " + settings
            + "): give another --csv");
      }
      rows.add(row);
    }
    return rows;
  }

  private static Row find(List<Row> rows, String policy, long seed) {
    for (Row row : rows) {
      if (row.policy().equals(policy) && row.seed() == seed) {
        return row;
      }
    }
    return null;
  }

  /**
   * The report: per policy, mean job and block hit ratios with 95 % intervals over the seeds;
   * the bounds' means; and each policy's paired per-seed difference from the first policy.
   */
  static void report(List<Row> rows, List<String> policies, PrintStream out) {
    Map<String, List<Row>> byPolicy = new LinkedHashMap<>();
    for (String policy : policies) {
      byPolicy.put(policy, rows.stream().filter(r -> r.policy().equals(policy)).toList());
    }
    TreeSet<Long> seeds = new TreeSet<>();
    rows.forEach(r -> seeds.add(r.seed()));
    out.printf(Locale.ROOT, "Seeds %s; means with 95 %% t intervals over the seeds.%n%n", seeds);
    out.println("| policy | seeds | job hit ratio | block hit ratio |");
    out.println("|---|---:|---|---|");
    byPolicy.forEach((policy, runs) -> out.printf(Locale.ROOT, "| %s | %d | %s | %s |%n",
        policy, runs.size(), interval(runs.stream().mapToDouble(Row::jobHit).toArray()),
        interval(runs.stream().mapToDouble(Row::blockHit).toArray())));
    List<Row> first = byPolicy.get(policies.get(0));
    out.printf(Locale.ROOT, "| upper bounds (jobs: JobBound; blocks: Belady's MIN) | %d | %s |"
            + " %s |%n", first.size(),
        interval(first.stream().mapToDouble(Row::jobBound).toArray()),
        interval(first.stream().mapToDouble(Row::blockBound).toArray()));
    out.printf(Locale.ROOT, "%nPaired per-seed differences against %s (points; above zero: the"
        + " policy is better):%n%n", policies.get(0));
    out.println("| policy | seeds | job hits | block hits | seeds better on job hits |");
    out.println("|---|---:|---|---|---:|");
    for (String policy : policies.subList(1, policies.size())) {
      List<double[]> pairs = new ArrayList<>();
      for (Row row : byPolicy.get(policy)) {
        Row base = find(first, policies.get(0), row.seed());
        if (base != null) {
          pairs.add(new double[] {100 * (row.jobHit() - base.jobHit()),
              100 * (row.blockHit() - base.blockHit())});
        }
      }
      long better = pairs.stream().filter(p -> p[0] > 0).count();
      out.printf(Locale.ROOT, "| %s | %d | %s | %s | %d of %d |%n", policy, pairs.size(),
          points(pairs.stream().mapToDouble(p -> p[0]).toArray()),
          points(pairs.stream().mapToDouble(p -> p[1]).toArray()), better, pairs.size());
    }
  }

  /** A mean ratio in percent with its 95 % interval. */
  private static String interval(double[] ratios) {
    double[] percent = java.util.Arrays.stream(ratios).map(r -> 100 * r).toArray();
    double[] i = meanAndHalfWidth(percent);
    return Double.isNaN(i[1]) ? String.format(Locale.ROOT, "%.1f %%", i[0])
        : String.format(Locale.ROOT, "%.1f %% (%.1f–%.1f)", i[0], i[0] - i[1], i[0] + i[1]);
  }

  private static String points(double[] differences) {
    double[] i = meanAndHalfWidth(differences);
    return Double.isNaN(i[1]) ? String.format(Locale.ROOT, "%+.1f", i[0])
        : String.format(Locale.ROOT, "%+.1f (%+.1f to %+.1f)", i[0], i[0] - i[1], i[0] + i[1]);
  }

  /** The mean and the half-width of its 95 % Student t interval (NaN under two values). */
  static double[] meanAndHalfWidth(double[] values) {
    int n = values.length;
    double mean = java.util.Arrays.stream(values).average().orElse(Double.NaN);
    if (n < 2) {
      return new double[] {mean, Double.NaN};
    }
    double variance = java.util.Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum()
        / (n - 1);
    return new double[] {mean, new TDistribution(n - 1).inverseCumulativeProbability(0.975)
        * Math.sqrt(variance / n)};
  }
}
