package org.mpcache.simulator;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Policies over many seeds, side by side (docs/policies.md, "Evaluation"): a row per policy and
 * seed in a CSV, written as each run ends, which a later run with the same settings resumes;
 * the settings live beside it ({@code <csv>.settings}), and a run with others is refused; the
 * job hit ratio per quarter of the trace, blocks written and ns per event go to
 * {@code <csv>.details}. Then each policy's means with 95 % Student t intervals beside the
 * bounds', and the paired per-seed differences of every policy against the first one listed.
 */
final class SimulatorRuns {
  static final String HEADER = "policy,seed,nodes,block_hit,job_hit,block_bound,job_bound";
  static final String DETAILS_HEADER = "policy,seed,job_hit_q1,job_hit_q2,job_hit_q3,job_hit_q4,"
      + "blocks_written_per_job,ns_per_event";

  /** One policy on one seed (ratios 0..1). */
  record Row(String policy, long seed, int nodes, double blockHit, double jobHit,
      double blockBound, double jobBound) {
    String csv() {
      return String.format(Locale.ROOT, "%s,%d,%d,%.6f,%.6f,%.6f,%.6f", policy, seed, nodes,
          blockHit, jobHit, blockBound, jobBound);
    }

    /** The details line of the policy's result on this seed. */
    String details(PolicySimulator.Result result) {
      StringBuilder line = new StringBuilder(policy + "," + seed);
      for (int q = 0; q < PolicySimulator.QUARTERS; q++) {
        line.append(String.format(Locale.ROOT, ",%.6f", result.quarterJobHitRatio(q)));
      }
      return line.append(String.format(Locale.ROOT, ",%.3f,%.1f",
          (double) result.blocksWritten() / result.jobs(), result.nsPerEvent())).toString();
    }

    static Row parse(String line) {
      String[] f = line.split(",");
      if (f.length != 7) {
        throw new IllegalArgumentException("expected 7 fields, got " + f.length);
      }
      return new Row(f[0], Long.parseLong(f[1]), Integer.parseInt(f[2]),
          Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
          Double.parseDouble(f[6]));
    }
  }

  private SimulatorRuns() {
  }

  /**
   * What runs must share to be compared (the seed aside); the read order only when it is not
   * file order, which settings files written before it existed were run in.
   */
  static String settingsLine(PolicySimulator.Settings s, ReadOrder order) {
    return String.format(Locale.ROOT, "nodes=%d tenants=%d jobs=%d s=%s cache-mb=%d block-mb=%d"
        + " shift=%d%s", s.nodes(), s.tenants(), s.jobs(), s.zipfS(), s.cacheMbPerNode(),
        s.blockMb(), s.shiftEvery(), order == ReadOrder.FILE ? "" : " reads=" + order.option());
  }

  /**
   * Runs every policy on every seed not yet in {@code csv}, appending a row each, and returns
   * the rows of these seeds and policies.
   */
  static List<Row> run(PolicySimulator.Settings base, ReadOrder order, List<Long> seeds,
      List<String> policies, Path csv, PrintStream progress) throws IOException {
    List<Row> rows = claim(csv, settingsLine(base, order));
    for (long seed : seeds) {
      Trace trace = null;
      double blockBound = Double.NaN;
      double jobBound = Double.NaN;
      for (String policy : policies) {
        if (find(rows, policy, seed) != null) {
          continue;
        }
        if (trace == null) {
          trace = Trace.generate(base.withSeed(seed)).materialize();
          blockBound = OfflineBound.run(trace, order).blockHitRatio();
          jobBound = (double) JobBound.jobHits(trace, 0) / trace.jobs();
        }
        PolicySimulator.Result result = PolicySimulator.run(trace,
            SimulatorPolicies.create(policy), order);
        Row row = new Row(policy, seed, base.nodes(), result.blockHitRatio(),
            result.jobHitRatio(), blockBound, jobBound);
        rows.add(row);
        append(details(csv), row.details(result));
        append(csv, row.csv());
        progress.printf(Locale.ROOT, "seed %d %s: job hits %.1f %%, block hits %.1f %%, %.0f ns"
                + " an event (%.0f s)%n", seed, policy, 100 * row.jobHit(), 100 * row.blockHit(),
            result.nsPerEvent(), result.seconds());
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

  private static Path details(Path csv) {
    return Path.of(csv + ".details");
  }

  private static void append(Path file, String line) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
        StandardOpenOption.APPEND)) {
      out.write(line + "\n");
    }
  }

  /**
   * The rows {@code csv} holds, after checking its settings file says {@code settings}; a new
   * (or empty) CSV is started with its header, settings and details files. A last line cut
   * short by a killed run is dropped (the details are written first, so each row has them).
   */
  static List<Row> claim(Path csv, String settings) throws IOException {
    Path settingsFile = Path.of(csv + ".settings");
    List<Row> rows = new ArrayList<>();
    if (!Files.exists(csv) || Files.size(csv) == 0) {
      Files.writeString(settingsFile, settings + "\n", StandardCharsets.UTF_8);
      Files.writeString(csv, HEADER + "\n", StandardCharsets.UTF_8);
      Files.writeString(details(csv), DETAILS_HEADER + "\n", StandardCharsets.UTF_8);
      return rows;
    }
    String recorded = Files.exists(settingsFile)
        ? Files.readString(settingsFile, StandardCharsets.UTF_8).trim() : "(none)";
    if (!recorded.equals(settings)) {
      throw new IOException(csv + " holds runs with other settings (" + recorded + "; this run "
          + settings + "): give another --csv");
    }
    String text = Files.readString(csv, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(List.of(text.split("\n")));
    if (!lines.get(0).equals(HEADER)) {
      throw new IOException(csv + " is not a simulator results file (header " + HEADER + ")");
    }
    if (!text.endsWith("\n")) {
      lines.remove(lines.size() - 1);
      Files.writeString(csv, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }
    for (int i = 1; i < lines.size(); i++) {
      try {
        rows.add(Row.parse(lines.get(i)));
      } catch (RuntimeException e) {
        throw new IOException(csv + ":" + (i + 1) + ": malformed row (" + e.getMessage() + ")",
            e);
      }
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
   * The report: per policy, mean job and block hit ratios with 95 % intervals over the seeds,
   * the bounds' means and the gap from the best policy to each; then each policy's paired
   * per-seed difference from the first policy.
   */
  static void report(Path csv, ReadOrder order, List<Row> rows, List<String> policies,
      PrintStream out) throws IOException {
    Map<String, List<Row>> byPolicy = new LinkedHashMap<>();
    for (String policy : policies) {
      byPolicy.put(policy, rows.stream().filter(r -> r.policy().equals(policy)).toList());
    }
    TreeSet<Long> seeds = new TreeSet<>();
    rows.forEach(r -> seeds.add(r.seed()));
    out.printf(Locale.ROOT, "Seeds %s, a job's blocks read in %s order; means in %% with 95 %%"
        + " t intervals over the seeds.%n%n", seeds, order.option());
    out.println("| policy | seeds | job hit ratio | block hit ratio |");
    out.println("|---|---:|---|---|");
    byPolicy.forEach((policy, runs) -> out.printf(Locale.ROOT, "| %s | %d | %s | %s |%n",
        policy, runs.size(), percent(runs, Row::jobHit), percent(runs, Row::blockHit)));
    List<Row> first = byPolicy.get(policies.get(0));
    out.printf(Locale.ROOT, "| upper bounds (jobs: JobBound; blocks: Belady's MIN) | %d | %s |"
        + " %s |%n", first.size(), percent(first, Row::jobBound), percent(first, Row::blockBound));
    double bestJobs = byPolicy.values().stream().mapToDouble(r -> mean(r, Row::jobHit)).max()
        .orElse(Double.NaN);
    double bestBlocks = byPolicy.values().stream().mapToDouble(r -> mean(r, Row::blockHit))
        .max().orElse(Double.NaN);
    out.printf(Locale.ROOT, "%nGap from the best policy to the bounds: job hits %.1f points,"
            + " block hits %.1f points.%n", 100 * (mean(first, Row::jobBound) - bestJobs),
        100 * (mean(first, Row::blockBound) - bestBlocks));
    detailsTable(csv, rows, policies, out);
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
          Interval.ofMean(pairs.stream().mapToDouble(p -> p[0]).toArray()).format("%+.1f"),
          Interval.ofMean(pairs.stream().mapToDouble(p -> p[1]).toArray()).format("%+.1f"), better,
          pairs.size());
    }
  }

  /**
   * Per policy, the means over the rows' seeds of the details: job hits per quarter, blocks
   * written per job, ns per event (the last details line of a policy and seed counts).
   */
  private static void detailsTable(Path csv, List<Row> rows, List<String> policies,
      PrintStream out) throws IOException {
    Map<String, double[]> details = new HashMap<>();
    List<String> lines = Files.readAllLines(details(csv), StandardCharsets.UTF_8);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      double[] values = new double[f.length - 2];
      for (int i = 0; i < values.length; i++) {
        values[i] = Double.parseDouble(f[i + 2]);
      }
      details.put(f[0] + "," + f[1], values);
    }
    out.printf(Locale.ROOT, "%n| policy | job hits, quarters 1 to 4 | blocks written per job |"
        + " ns per event |%n|---|---|---:|---:|%n");
    for (String policy : policies) {
      double[] sum = new double[PolicySimulator.QUARTERS + 2];
      int n = 0;
      for (Row row : rows) {
        double[] values = details.get(policy + "," + row.seed());
        if (row.policy().equals(policy) && values != null) {
          for (int i = 0; i < sum.length; i++) {
            sum[i] += values[i];
          }
          n++;
        }
      }
      StringBuilder quarters = new StringBuilder();
      for (int q = 0; q < PolicySimulator.QUARTERS; q++) {
        quarters.append(q == 0 ? "" : " / ")
            .append(String.format(Locale.ROOT, "%.1f %%", 100 * sum[q] / n));
      }
      out.printf(Locale.ROOT, "| %s | %s | %.1f | %.0f |%n", policy, quarters,
          sum[PolicySimulator.QUARTERS] / n, sum[PolicySimulator.QUARTERS + 1] / n);
    }
  }

  /** The mean of {@code of} over the rows, in %, with its 95 % t interval. */
  static <T> String percent(List<T> rows, ToDoubleFunction<T> of) {
    return Interval.ofMean(rows.stream().mapToDouble(r -> 100 * of.applyAsDouble(r)).toArray())
        .format("%.1f");
  }

  static <T> double mean(List<T> rows, ToDoubleFunction<T> of) {
    return rows.stream().mapToDouble(of).average().orElse(Double.NaN);
  }
}
