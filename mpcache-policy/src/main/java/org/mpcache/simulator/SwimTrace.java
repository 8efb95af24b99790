package org.mpcache.simulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;


/**
 * A trace of a workload the SWIM project published (the Statistical Workload Injector for
 * MapReduce): samples of a production Hadoop cluster's jobs. The one that names each job's input,
 * Facebook's 2010 workload of 24 one-hour samples
 * ({@code FB-2010_samples_24_times_1hr_withInputPaths_0.tsv}; docs/policies.md says where to get
 * it), is read here.
 *
 * <p>Format: tab-separated, a job a line: its name, its submit time in seconds from the start of
 * the workload, seconds since the previous submission, map input bytes, shuffle bytes, output
 * bytes, input path (anonymised: {@code inputPath1}, ...), output path. The samples are joined
 * end to end, an hour each: a job's sample is the hour of its submit time.
 *
 * <p>A job reads its input's blocks once, at the settings' block size; a job without input reads
 * nothing and is left out. What a data set is ({@link DataSetReading}) decides what a policy can
 * keep whole, and whether a job reads part of one ({@link PartialRead}). The trace is laid out
 * and placed as {@link RealTraceBuilder} says.
 */
public final class SwimTrace {
  /** The samples of the published workloads: hours. */
  public static final int SAMPLES = 24;
  private static final int SECONDS_PER_SAMPLE = 3600;
  private static final int FIELDS = 7;

  /** How the workload's jobs form data sets. */
  public enum DataSetReading implements OptionWord {
    /**
     * An input path is a data set, as large as the most any job read of it; every job over it
     * reads it whole.
     */
    PATH("path"),
    /**
     * An input path is a data set, as large as the most any job read of it; a job reads as many
     * of its blocks as its own input holds, those a {@link PartialRead} picks.
     */
    PATH_PART("path-part"),
    /** An input path read with one size is a data set; read with another size, it is another. */
    PATH_AND_SIZE("path-size");

    private final String option;

    DataSetReading(String option) {
      this.option = option;
    }

    @Override
    public String option() {
      return option;
    }

    public static DataSetReading of(String option) {
      return OptionWord.parse(DataSetReading.class, "--data-set", option);
    }
  }

  /** One job of the workload: its line, submit time, map input bytes and input path. */
  public record Job(int line, long submitSecond, long inputBytes, String inputPath) {
    /** The sample (hour) the job belongs to; the last takes the seconds past the 24th hour. */
    public int sample() {
      return (int) Math.min(SAMPLES - 1, submitSecond / SECONDS_PER_SAMPLE);
    }
  }

  private SwimTrace() {
  }

  /** The jobs of a SWIM workload file, in order; a malformed line is named. */
  public static List<Job> read(Path file) throws IOException {
    List<Job> jobs = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int lineNumber = 0;
      for (String line; (line = in.readLine()) != null;) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        String[] fields = line.split("\t", -1);
        try {
          if (fields.length < FIELDS || fields[6].isEmpty()) {
            throw new IllegalArgumentException(fields.length < FIELDS ? fields.length
                + " fields, at least " + FIELDS + " expected (a workload without input paths?)"
                : "no input path");
          }
          long submit = Long.parseLong(fields[1].trim());
          long input = Long.parseLong(fields[3].trim());
          if (submit < 0 || input < 0) {
            throw new IllegalArgumentException("a negative submit time or input size");
          }
          jobs.add(new Job(lineNumber, submit, input, fields[6].trim()));
        } catch (IllegalArgumentException e) {
          throw new IOException(file + ":" + lineNumber + ": not a SWIM job with an input path ("
              + e.getMessage() + "): " + line, e);
        }
      }
    }
    return jobs;
  }

  /**
   * The trace of the jobs of samples {@code fromSample} to {@code toSample} (both included) that
   * read input, with data sets formed as {@code reading} says among those jobs alone.
   *
   * @param partialRead which blocks a job reads of a larger data set
   *     ({@link DataSetReading#PATH_PART})
   * @param base the cluster (nodes, cache and block size) and the seed of the placement; the
   *     trace's job count and one tenant replace its own
   */
  public static Trace trace(List<Job> workload, DataSetReading reading, PartialRead partialRead,
      int fromSample, int toSample, PolicySimulator.Settings base) {
    if (fromSample < 0 || toSample >= SAMPLES || fromSample > toSample) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "samples %d-%d: expected"
          + " hours within 0-%d, the first not after the last", fromSample, toSample,
          SAMPLES - 1));
    }
    long blockBytes = (long) base.blockMb() << 20;
    List<Job> jobs = workload.stream().filter(job -> job.inputBytes() > 0
        && job.sample() >= fromSample && job.sample() <= toSample).toList();
    Map<String, Integer> blocksOf = new HashMap<>();
    for (Job job : jobs) {
      blocksOf.merge(key(job, reading), blocks(job, blockBytes), Math::max);
    }
    RealTraceBuilder trace = new RealTraceBuilder(base);
    SplittableRandom parts = new SplittableRandom(base.seed() + 2);
    for (Job job : jobs) {
      String key = key(job, reading);
      int blocks = blocksOf.get(key);
      int reads = blocks(job, blockBytes);
      trace.read(key, blocks, reading == DataSetReading.PATH_PART && reads < blocks
          ? partialRead.blocks(blocks, reads, parts) : null);
    }
    return trace.build();
  }

  private static String key(Job job, DataSetReading reading) {
    return reading == DataSetReading.PATH_AND_SIZE ? job.inputPath() + '\t' + job.inputBytes()
        : job.inputPath();
  }

  private static int blocks(Job job, long blockBytes) {
    long blocks = (job.inputBytes() + blockBytes - 1) / blockBytes;
    if (blocks > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("line " + job.line() + ": " + job.inputBytes()
          + " bytes of input are more blocks than a data set holds; give larger blocks");
    }
    return (int) blocks;
  }
}
