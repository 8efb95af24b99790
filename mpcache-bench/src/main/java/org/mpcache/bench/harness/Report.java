package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The results folder of a harness run: {@code jobs.csv} (every timed job), {@code summary.md}
 * (machine, sizes, devices, speedups with their spread over repeats, per-benchmark normalized
 * times) and {@code report.html} (the same with bar charts). Speedups pair each job with the
 * same job of the baseline configuration in the same repeat.
 */
final class Report {
  private final HarnessOptions options;
  private final long workingSetBytes;
  private final List<JobResult> results;
  private final ClusterSetup baseline;

  Report(HarnessOptions options, long workingSetBytes, List<JobResult> results) {
    this.workingSetBytes = workingSetBytes;
    this.options = options;
    this.results = results;
    this.baseline = options.setups().get(0);
  }

  void write(File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    List<String> csv = new ArrayList<>(List.of(JobResult.CSV_HEADER));
    results.forEach(r -> csv.add(r.csv()));
    Files.write(new File(dir, "jobs.csv").toPath(), csv, StandardCharsets.UTF_8);
    Files.writeString(new File(dir, "summary.md").toPath(), summaryMarkdown());
    Files.writeString(new File(dir, "report.html").toPath(), html());
  }

  /** Speedup over the baseline per repeat: geometric mean over the jobs. */
  private List<Double> speedups(ClusterSetup setup) {
    List<Double> perRepeat = new ArrayList<>();
    for (int repeat = 1; repeat <= options.repeats(); repeat++) {
      int inRepeat = repeat;
      List<Double> ratios =
          ratiosToBaseline(setup, job -> job.repeat() == inRepeat, JobResult::seconds);
      if (!ratios.isEmpty()) {
        perRepeat.add(geoMean(ratios));
      }
    }
    return perRepeat;
  }

  /**
   * For each job of {@code setup} that {@code which} selects and the baseline ran too (same
   * repeat and index): the baseline's {@code time} over the job's.
   */
  private List<Double> ratiosToBaseline(ClusterSetup setup, Predicate<JobResult> which,
      ToDoubleFunction<JobResult> time) {
    List<Double> ratios = new ArrayList<>();
    for (JobResult job : of(setup, -1)) {
      JobResult base = find(baseline, job.repeat(), job.index());
      if (which.test(job) && base != null) {
        ratios.add(time.applyAsDouble(base) / time.applyAsDouble(job));
      }
    }
    return ratios;
  }

  /** Per benchmark, the job time relative to the baseline (geometric mean over its jobs). */
  private Map<String, Double> normalizedTimes(ClusterSetup setup) {
    Map<String, List<Double>> ratios = new LinkedHashMap<>();
    for (JobResult job : results) {
      JobResult base = find(baseline, job.repeat(), job.index());
      if (job.setup() == setup && base != null) {
        ratios.computeIfAbsent(job.benchmark(), b -> new ArrayList<>())
            .add(job.seconds() / base.seconds());
      }
    }
    Map<String, Double> means = new LinkedHashMap<>();
    ratios.forEach((benchmark, values) -> means.put(benchmark, geoMean(values)));
    return means;
  }

  String summaryMarkdown() {
    StringBuilder md = new StringBuilder("# PUMA mix: ").append(names()).append("\n\n");
    md.append(setting()).append("\n\n");
    md.append("| configuration | speedup over ").append(baseline.label())
        .append(" (geo-mean; min–max over repeats) | mean job s | mean map s | mean reduce s "
            + "| cache hit (bytes) | emulated HDD busy (busiest) | machine CPU busy "
            + "| data-local maps | cache-local maps |\n"
            + "|---|---|---|---|---|---|---|---|---|---|\n");
    for (ClusterSetup setup : setups()) {
      List<Double> speedups = speedups(setup);
      List<JobResult> jobs = of(setup, -1);
      md.append(String.format(Locale.ROOT,
          "| %s | %s | %.1f | %.1f | %.1f | %s | %s | %s | %s | %s |%n",
          setup.label(), speedups.isEmpty() ? "—" : String.format(Locale.ROOT,
              "%.2f× (%.2f–%.2f)", geoMean(speedups), min(speedups), max(speedups)),
          mean(jobs, JobResult::seconds), mean(jobs, JobResult::mapSeconds),
          mean(jobs, JobResult::reduceSeconds), percent(weightedHit(jobs)),
          percent(mean(jobs, JobResult::hddUtilization)) + " ("
              + percent(mean(jobs, JobResult::busiestHdd)) + ")",
          percent(mean(jobs, JobResult::cpuUtilization)),
          percent(mean(jobs, JobResult::dataLocalMaps)),
          percent(mean(jobs, JobResult::cacheLocalMaps))));
    }
    md.append("\nJob time relative to ").append(baseline.label())
        .append(" per benchmark (geometric mean over its jobs; lower is better):\n\n| benchmark |");
    setups().forEach(s -> md.append(' ').append(s.label()).append(" |"));
    md.append("\n|---|").append("---|".repeat(setups().size())).append('\n');
    Map<ClusterSetup, Map<String, Double>> normalized = new LinkedHashMap<>();
    setups().forEach(setup -> normalized.put(setup, normalizedTimes(setup)));
    for (String benchmark : benchmarks()) {
      md.append("| ").append(benchmark).append(" |");
      for (ClusterSetup setup : setups()) {
        Double value = normalized.get(setup).get(benchmark);
        md.append(value == null ? " — |" : String.format(Locale.ROOT, " %.2f |", value));
      }
      md.append('\n');
    }
    md.append('\n').append(phases());
    md.append('\n').append(targets());
    return md.toString();
  }

  /**
   * Map and reduce phases of the jobs that shuffle (in the baseline), mean over repeats, with
   * each configuration's reduce-phase speedup over the baseline (geometric mean over those jobs)
   * and the share of localized data it kept on SSD.
   */
  private String phases() {
    List<JobResult> shuffling = of(baseline, -1).stream()
        .filter(job -> job.shuffleBytes() > 0).toList();
    Set<Integer> indexes = new TreeSet<>();
    shuffling.forEach(job -> indexes.add(job.index()));
    if (indexes.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("Phases of the jobs that shuffle: map s / reduce s, mean "
        + "over repeats (shuffle: map output bytes the reduces fetched):\n\n"
        + "| job | benchmark | input | shuffle MB |");
    setups().forEach(s -> md.append(' ').append(s.label()).append(" |"));
    md.append("\n|---|---|---|---|").append("---|".repeat(setups().size())).append('\n');
    for (int index : indexes) {
      JobResult first = shuffling.stream().filter(job -> job.index() == index).findFirst().get();
      md.append(String.format(Locale.ROOT, "| %d | %s | %s | %d |", index, first.benchmark(),
          first.input(), first.shuffleBytes() >> 20));
      for (ClusterSetup setup : setups()) {
        List<JobResult> runs = of(setup, -1).stream().filter(job -> job.index() == index)
            .toList();
        md.append(runs.isEmpty() ? " — |" : String.format(Locale.ROOT, " %.1f / %.1f |",
            mean(runs, JobResult::mapSeconds), mean(runs, JobResult::reduceSeconds)));
      }
      md.append('\n');
    }
    md.append("| reduce-phase speedup over ").append(baseline.label()).append(" | | | |");
    for (ClusterSetup setup : setups()) {
      List<Double> ratios = ratiosToBaseline(setup, job -> indexes.contains(job.index()),
          JobResult::reduceSeconds);
      md.append(ratios.isEmpty() ? " — |"
          : String.format(Locale.ROOT, " %.2f× |", geoMean(ratios)));
    }
    md.append("\n| localized bytes on SSD | | | |");
    for (ClusterSetup setup : setups()) {
      md.append(' ').append(percent(mean(of(setup, -1).stream()
          .filter(job -> indexes.contains(job.index())).toList(), JobResult::localizedOnSsd)))
          .append(" |");
    }
    return md.append("\n").toString();
  }

  private String setting() {
    String devices = options.emulated()
        ? String.format("**Devices were emulated** (this machine has one virtual disk): each node "
            + "has one HDD (%s) holding its DataNode volume and its NodeManager's local dirs, and "
            + "one SSD (%s) holding the mpCache dir and, where localized data is cached, the "
            + "slave's localized dir as the last of the NodeManager's four local dirs (under "
            + "ALL_SSD: a second DataNode volume that holds the inputs, and all four local "
            + "dirs); profile = bandwidth, seek when streams interleave, extent per seek.",
            options.hdd(), options.ssd())
        : "Real devices, unthrottled: HDD = " + options.workDir() + ", SSD = " + options.ssdDir()
            + ".";
    return String.format(Locale.ROOT, "Run on %s: %d cores, %d MB max heap, JDK %s, %s. "
        + "Embedded cluster: %d DataNode + NodeManager pairs, %d task containers each, "
        + "%d MB blocks, replication 1, map outputs %s. Mix of %s: %d timed jobs after %d "
        + "whose reads warmed the caches, Zipf s = %s, k ≤ %d, %d MB at k = 1, "
        + "seed %d; working set %d MB; SSD cache %s of it (%d MB per node), in-memory cache "
        + "%s of the SSD cache rounded up to whole blocks (%d MB per node). "
        + "%d repeat(s) per configuration, each on a fresh cluster.%n%n%s%n%nConfigurations: "
        + "%s.",
        LocalDate.now(), Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20, System.getProperty("java.version"),
        ManagementFactory.getOperatingSystemMXBean().getName(), options.nodes(),
        options.containersPerNode(), options.blockBytes() >> 20,
        options.compressMapOutput() ? "snappy-compressed" : "uncompressed",
        options.benchmarks().isEmpty() ? "all PUMA benchmarks"
            : String.join(", ", options.benchmarks()), options.jobs(),
        options.history(), options.zipfS(), options.maxK(), options.baseBytes() >> 20,
        options.seed(),
        workingSetBytes >> 20, percent(options.ssdShare()),
        options.ssdBytesPerNode(workingSetBytes) >> 20, percent(options.memoryShare()),
        options.memoryBytesPerNode(workingSetBytes) >> 20,
        options.repeats(), devices, setups().stream()
            .map(setup -> setup.label() + " = " + setup.description())
            .collect(Collectors.joining("; ")));
  }

  /** The targets, against what this run measured (only those it can judge). */
  private String targets() {
    StringBuilder out = new StringBuilder("Targets (docs/benchmarks.md):\n\n");
    if (baseline == ClusterSetup.STOCK && setups().contains(ClusterSetup.MPCACHE)) {
      out.append(String.format(Locale.ROOT, "- mpCache over stock: %.2f× (target ≥ 2.5×)%n",
          geoMean(speedups(ClusterSetup.MPCACHE))));
      if (setups().contains(ClusterSetup.MEMORY)) {
        out.append(String.format(Locale.ROOT,
            "- mpCache over the in-memory cache: %.2f× (target ≥ 1.8×)%n",
            geoMean(speedups(ClusterSetup.MPCACHE)) / geoMean(speedups(ClusterSetup.MEMORY))));
      }
      if (setups().contains(ClusterSetup.ALL_SSD)) {
        out.append(String.format(Locale.ROOT,
            "- mpCache against ALL_SSD: %.0f %% of its speedup (target ≥ 90 %%)%n",
            100 * geoMean(speedups(ClusterSetup.MPCACHE))
                / geoMean(speedups(ClusterSetup.ALL_SSD))));
      }
    }
    return out.toString();
  }

  private String html() {
    StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\">"
        + "<title>mpCache PUMA benchmark</title><style>body{font-family:sans-serif;max-width:"
        + "1100px;margin:2em auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        + "padding:4px 8px;text-align:right}</style></head><body>");
    html.append("<h1>PUMA mix: ").append(escape(names())).append("</h1><p>")
        .append(escape(setting())).append("</p>");
    html.append("<h2>Speedup over ").append(baseline.label())
        .append(" (geometric mean; whiskers: min–max over repeats)</h2>");
    List<String> labels = new ArrayList<>();
    List<double[]> bars = new ArrayList<>();
    for (ClusterSetup setup : setups()) {
      List<Double> speedups = speedups(setup);
      if (!speedups.isEmpty()) {
        labels.add(setup.label());
        bars.add(new double[] {geoMean(speedups), min(speedups), max(speedups)});
      }
    }
    html.append(barChart(labels, bars));
    html.append("<h2>Job time relative to ").append(baseline.label())
        .append(", per benchmark (lower is better)</h2>");
    for (ClusterSetup setup : setups()) {
      Map<String, Double> times = normalizedTimes(setup);
      List<double[]> values = new ArrayList<>();
      times.values().forEach(v -> values.add(new double[] {v, v, v}));
      html.append("<h3>").append(setup.label()).append("</h3>")
          .append(barChart(new ArrayList<>(times.keySet()), values));
    }
    html.append("<h2>Summary</h2><pre>").append(escape(summaryMarkdown())).append("</pre>");
    return html.append("</body></html>").toString();
  }

  /** A horizontal bar chart in SVG: value with a min–max whisker per label. */
  private static String barChart(List<String> labels, List<double[]> bars) {
    double top = Math.max(1, bars.stream().mapToDouble(b -> b[2]).max().orElse(1)) * 1.1;
    int rowHeight = 22;
    int width = 700;
    int labelWidth = 180;
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
        width + 60, labels.size() * rowHeight + 24));
    double scale = (width - labelWidth) / top;
    int one = (int) (labelWidth + scale);
    svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\" "
        + "stroke=\"#c00\" stroke-dasharray=\"4\"/>", one, one, labels.size() * rowHeight));
    for (int i = 0; i < labels.size(); i++) {
      double[] bar = bars.get(i);
      int y = i * rowHeight;
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
          + "font-size=\"12\">%s</text>", labelWidth - 6, y + 15, escape(labels.get(i))));
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
          + "height=\"16\" fill=\"#4a7ebb\"/>", labelWidth, y + 3, bar[0] * scale));
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
          + "stroke=\"#000\"/>", labelWidth + bar[1] * scale, y + 11, labelWidth + bar[2] * scale,
          y + 11));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">"
          + "%.2f</text>", labelWidth + bar[2] * scale + 4, y + 15, bar[0]));
    }
    return svg.append("</svg>").toString();
  }

  private String names() {
    return setups().stream().map(ClusterSetup::label).collect(Collectors.joining(" vs "));
  }

  private Set<ClusterSetup> setups() {
    return new LinkedHashSet<>(options.setups());
  }

  private Set<String> benchmarks() {
    Set<String> names = new LinkedHashSet<>();
    results.forEach(r -> names.add(r.benchmark()));
    return names;
  }

  private List<JobResult> of(ClusterSetup setup, int repeat) {
    return results.stream()
        .filter(r -> r.setup() == setup && (repeat < 0 || r.repeat() == repeat)).toList();
  }

  private JobResult find(ClusterSetup setup, int repeat, int index) {
    return results.stream().filter(r -> r.setup() == setup && r.repeat() == repeat
        && r.index() == index).findFirst().orElse(null);
  }

  private static double weightedHit(List<JobResult> jobs) {
    double hit = 0;
    double bytes = 0;
    for (JobResult job : jobs) {
      if (!Double.isNaN(job.hitRatio())) {
        hit += job.hitRatio() * job.inputBytes();
        bytes += job.inputBytes();
      }
    }
    return bytes == 0 ? Double.NaN : hit / bytes;
  }

  private static double mean(List<JobResult> jobs, ToDoubleFunction<JobResult> value) {
    return jobs.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average()
        .orElse(Double.NaN);
  }

  static double geoMean(List<Double> values) {
    return Math.exp(values.stream().mapToDouble(Math::log).average().orElse(Double.NaN));
  }

  private static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  static String percent(double share) {
    return Double.isNaN(share) ? "—" : String.format(Locale.ROOT, "%.0f %%", 100 * share);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
