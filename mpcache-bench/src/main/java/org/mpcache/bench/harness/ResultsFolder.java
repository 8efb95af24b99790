package org.mpcache.bench.harness;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A results folder that runs add to: one CSV per seed and configuration under {@code runs/},
 * written when that stream's jobs and output checks are done, so an interrupted run resumes at
 * the first stream it had not finished, and a report can merge streams run in several sittings.
 * {@code settings.txt} holds what the streams must share to be compared (cluster, mix, devices);
 * a run with other settings is refused rather than merged. A report can also merge the folders of
 * several sittings ({@link MergedSittings}), each job tagged with its folder's name.
 */
final class ResultsFolder {
  private static final String SETTINGS = "settings.txt";
  private final File dir;
  private final File runs;

  ResultsFolder(File dir) {
    this.dir = dir;
    this.runs = new File(dir, "runs");
  }

  File dir() {
    return dir;
  }

  /**
   * Makes the folder this run's, or checks that the runs already in it had the same settings.
   *
   * @throws IllegalArgumentException naming the settings that differ
   */
  void claim(Map<String, String> settings) throws IOException {
    Files.createDirectories(runs.toPath());
    File file = new File(dir, SETTINGS);
    if (!file.exists()) {
      List<String> lines = new ArrayList<>();
      new TreeMap<>(settings).forEach((key, value) -> lines.add(key + "=" + value));
      Files.write(file.toPath(), lines, StandardCharsets.UTF_8);
      return;
    }
    requireSettings(settings, "this run's; give another --report-dir");
  }

  /**
   * The jobs of every finished stream in the folder as one sitting's, named after the folder
   * ({@link MergedSittings}): they must have been run with {@code settings}.
   *
   * @throws IllegalArgumentException where the folder holds no results or other settings
   */
  List<JobResult> sitting(Map<String, String> settings) throws IOException {
    if (!new File(dir, SETTINGS).exists()) {
      throw new IllegalArgumentException(dir + " is no results folder of puma-benchmark.sh: it "
          + "has no " + SETTINGS);
    }
    requireSettings(settings, "the options given here; give --merge the options they were run "
        + "with");
    return all().stream().map(job -> job.inSitting(dir.getName())).toList();
  }

  /** {@code pairedWith} ends the message: whose jobs they could not pair with, and what to do. */
  private void requireSettings(Map<String, String> settings, String pairedWith)
      throws IOException {
    Map<String, String> found = new TreeMap<>();
    for (String line : Files.readAllLines(new File(dir, SETTINGS).toPath(),
        StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        found.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    List<String> differences = new ArrayList<>();
    Set<String> keys = new TreeSet<>(found.keySet());
    keys.addAll(settings.keySet());
    for (String key : keys) {
      if (!Objects.equals(found.get(key), settings.get(key))) {
        differences.add(key + " " + found.get(key) + " there, " + settings.get(key) + " here");
      }
    }
    if (!differences.isEmpty()) {
      throw new IllegalArgumentException("the results in " + dir + " were run with other "
          + "settings (" + String.join("; ", differences) + "): their jobs cannot be paired "
          + "with " + pairedWith);
    }
  }

  boolean done(long seed, ClusterSetup setup) {
    return file(seed, setup).exists();
  }

  /** Saves one stream's jobs, whole or not at all. */
  void save(long seed, ClusterSetup setup, List<JobResult> jobs) throws IOException {
    List<String> lines = new ArrayList<>(List.of(JobResult.CSV_HEADER));
    jobs.forEach(job -> lines.add(job.csv()));
    File partial = new File(runs, file(seed, setup).getName() + ".partial");
    Files.write(partial.toPath(), lines, StandardCharsets.UTF_8);
    Files.move(partial.toPath(), file(seed, setup).toPath(), StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Saves the simulator's decisions on one stream ({@link StreamSimulation#decisions}) as
   * {@code simulation/seed-S-CONFIG.log}, to read beside the master's lines in hadoop.log.
   */
  void saveDecisions(long seed, ClusterSetup setup, List<String> lines) throws IOException {
    File simulation = new File(dir, "simulation");
    Files.createDirectories(simulation.toPath());
    Files.write(new File(simulation, "seed-" + seed + "-" + setup.label() + ".log").toPath(),
        lines, StandardCharsets.UTF_8);
  }

  /** Every job of every finished stream in the folder. */
  List<JobResult> all() throws IOException {
    File[] files = runs.listFiles((d, name) -> name.endsWith(".csv"));
    List<JobResult> jobs = new ArrayList<>();
    if (files != null) {
      Arrays.sort(files);
      for (File file : files) {
        jobs.addAll(read(file));
      }
    }
    return jobs;
  }

  /** The jobs of one finished stream; none when the folder does not hold it. */
  List<JobResult> stream(long seed, ClusterSetup setup) throws IOException {
    return done(seed, setup) ? read(file(seed, setup)) : List.of();
  }

  private static List<JobResult> read(File file) throws IOException {
    return Files.readAllLines(file.toPath(), StandardCharsets.UTF_8).stream().skip(1)
        .filter(line -> !line.isBlank()).map(JobResult::parse).toList();
  }

  private File file(long seed, ClusterSetup setup) {
    return new File(runs, "seed-" + seed + "-" + setup.label() + ".csv");
  }
}
