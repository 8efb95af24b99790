package org.mpcache.simulator;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

import org.mpcache.policy.DataSet;

/**
 * A job trace: the settings it was drawn with and its jobs, in order. The simulator and the
 * replay on a real cluster both run traces, so both see the same reads. A generated trace draws
 * its jobs as they are iterated (large simulations never hold them all); a trace read from a file
 * holds them.
 *
 * <p>File format (text, one job a line after a header line):
 * <pre>
 * mpcache-trace 1 nodes=7 tenants=1 jobs=300 s=1.0 cache-mb=81920 block-mb=128 seed=1 [shift=N]
 *     [drawn=false]
 * &lt;data set id&gt; &lt;blocks&gt; &lt;first block&gt; &lt;r0&gt;,&lt;r1&gt;,&lt;r2&gt;/&lt;named&gt; ...
 *     [part=&lt;blocks read&gt;]
 * </pre>
 * with one {@code replicas/named} field per block of the data set; a job that reads part of its
 * data set ends with the blocks it reads, as ascending indexes and ranges ({@code part=0-9,12}).
 * {@code drawn=false} marks a trace the generator did not draw ({@link #drawn}).
 */
public final class Trace implements Iterable<TraceJob> {
  private static final String MAGIC = "mpcache-trace 1";
  private static final String PART = "part=";
  /** In the header of a trace the generator did not draw ({@link #drawn}). */
  private static final String NOT_DRAWN = "drawn=false";

  private final PolicySimulator.Settings settings;
  private final List<TraceJob> jobs;
  private final boolean drawn;

  private Trace(PolicySimulator.Settings settings, List<TraceJob> jobs, boolean drawn) {
    this.settings = settings;
    this.jobs = jobs;
    this.drawn = drawn;
  }

  /** A trace of the given jobs (hand-made ones, or a benchmark's job stream). */
  public static Trace of(PolicySimulator.Settings settings, List<TraceJob> jobs) {
    if (jobs.size() != settings.jobs()) {
      throw new IllegalArgumentException(settings.jobs() + " jobs in the settings, "
          + jobs.size() + " given");
    }
    return new Trace(settings, List.copyOf(jobs), false);
  }

  /**
   * The same jobs held in memory (about 16 bytes a read): each run of a policy then iterates
   * them instead of drawing them again, and times the policy alone.
   */
  public Trace materialize() {
    if (jobs != null) {
      return this;
    }
    List<TraceJob> all = new ArrayList<>(settings.jobs());
    for (TraceJob job : this) {
      all.add(job);
    }
    return new Trace(settings, all, drawn);
  }

  /** The same jobs on nodes with {@code cacheMbPerNode} of cache each. */
  public Trace withCacheMbPerNode(long cacheMbPerNode) {
    return new Trace(settings.withCacheMbPerNode(cacheMbPerNode), materialize().jobs, drawn);
  }

  /** The trace the workload generator draws for these settings (jobs drawn as iterated). */
  public static Trace generate(PolicySimulator.Settings settings) {
    return new Trace(settings, null, true);
  }

  public PolicySimulator.Settings settings() {
    return settings;
  }

  public int jobs() {
    return settings.jobs();
  }

  /**
   * Whether the workload generator drew the jobs ({@link #generate}, then perhaps written and
   * read back), not a workload read from outside or a benchmark's stream ({@link #of}).
   */
  public boolean drawn() {
    return drawn;
  }

  /**
   * Blocks of the trace's data sets, one replica each: of every data set the generator draws
   * from, or of those the listed jobs read.
   */
  public long dataBlocks() {
    if (drawn) {
      return PolicySimulator.workload(settings).totalBlocks();
    }
    Map<Integer, Integer> blocks = new HashMap<>();
    jobs.forEach(job -> blocks.put(job.dataSet().id(), job.dataSet().blocks()));
    return blocks.values().stream().mapToLong(Integer::longValue).sum();
  }

  @Override
  public Iterator<TraceJob> iterator() {
    return jobs != null ? jobs.iterator() : new Generator();
  }

  /** Draws jobs from the PUMA workload with the trace's seed, as the simulator always has. */
  private final class Generator implements Iterator<TraceJob> {
    private final PumaWorkload workload = PolicySimulator.workload(settings);
    private final PumaWorkload.JobStream stream = workload.jobs();
    private final SplittableRandom placement = new SplittableRandom(settings.seed() + 1);
    private final int[] blockReplicas = new int[PumaWorkload.REPLICATION];
    private int drawn;

    @Override
    public boolean hasNext() {
      return drawn < settings.jobs();
    }

    @Override
    public TraceJob next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      drawn++;
      DataSet dataSet = stream.next();
      long first = workload.firstBlock(dataSet);
      int[] replicas = new int[dataSet.blocks() * PumaWorkload.REPLICATION];
      int[] named = new int[dataSet.blocks()];
      for (int i = 0; i < dataSet.blocks(); i++) {
        workload.replicas(first + i, blockReplicas);
        System.arraycopy(blockReplicas, 0, replicas, i * PumaWorkload.REPLICATION,
            PumaWorkload.REPLICATION);
        named[i] = placement.nextInt(PumaWorkload.REPLICATION);
      }
      return new TraceJob(dataSet, first, replicas, named);
    }
  }

  /** Writes the trace to {@code file}. */
  public void write(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(String.format(Locale.ROOT, "%s nodes=%d tenants=%d jobs=%d s=%s cache-mb=%d"
              + " block-mb=%d seed=%d%s%s%n", MAGIC, settings.nodes(), settings.tenants(),
          settings.jobs(), settings.zipfS(), settings.cacheMbPerNode(), settings.blockMb(),
          settings.seed(),
          settings.shiftEvery() == 0 ? "" : " shift=" + settings.shiftEvery(),
          drawn ? "" : " " + NOT_DRAWN));
      StringBuilder line = new StringBuilder();
      for (TraceJob job : this) {
        line.setLength(0);
        line.append(job.dataSet().id()).append(' ').append(job.dataSet().blocks()).append(' ')
            .append(job.firstBlock());
        for (int i = 0; i < job.dataSet().blocks(); i++) {
          line.append(' ');
          for (int r = 0; r < PumaWorkload.REPLICATION; r++) {
            line.append(r == 0 ? "" : ",").append(job.replica(i, r));
          }
          line.append('/').append(job.named()[i]);
        }
        if (!job.readsWhole()) {
          line.append(' ').append(PART).append(ranges(job.part()));
        }
        out.write(line.append('\n').toString());
      }
    }
  }

  /** Reads a trace {@link #write} wrote; a malformed file is named with its line. */
  public static Trace read(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      if (header == null || !header.startsWith(MAGIC + " ")) {
        throw new IOException(file + ": not an mpCache trace (no '" + MAGIC + "' header)");
      }
      PolicySimulator.Settings settings = settingsOf(file, header.substring(MAGIC.length()));
      List<TraceJob> jobs = new ArrayList<>();
      int lineNumber = 1;
      for (String line; (line = in.readLine()) != null;) {
        lineNumber++;
        try {
          jobs.add(job(line));
        } catch (RuntimeException e) {
          throw new IOException(file + ":" + lineNumber + ": malformed job (" + e + ")", e);
        }
      }
      if (jobs.size() != settings.jobs()) {
        throw new IOException(file + ": the header says " + settings.jobs() + " jobs, the file "
            + "has " + jobs.size());
      }
      return new Trace(settings, List.copyOf(jobs), !header.contains(" " + NOT_DRAWN));
    }
  }

  private static PolicySimulator.Settings settingsOf(Path file, String fields)
      throws IOException {
    Map<String, String> values = new HashMap<>();
    for (String field : fields.trim().split(" +")) {
      int eq = field.indexOf('=');
      if (eq > 0) {
        values.put(field.substring(0, eq), field.substring(eq + 1));
      }
    }
    try {
      return new PolicySimulator.Settings(Integer.parseInt(values.get("nodes")),
          Integer.parseInt(values.get("tenants")), Integer.parseInt(values.get("jobs")),
          Double.parseDouble(values.get("s")), Long.parseLong(values.get("cache-mb")),
          Integer.parseInt(values.get("block-mb")), Long.parseLong(values.get("seed")),
          Integer.parseInt(values.getOrDefault("shift", "0")));
    } catch (RuntimeException e) {
      throw new IOException(file + ": malformed trace header '" + fields.trim() + "' (" + e
          + ")", e);
    }
  }

  /** Ascending indexes as ranges: {@code 0-9,12}. */
  private static String ranges(int[] indexes) {
    StringBuilder ranges = new StringBuilder();
    for (int k = 0; k < indexes.length;) {
      int last = k;
      while (last + 1 < indexes.length && indexes[last + 1] == indexes[last] + 1) {
        last++;
      }
      ranges.append(k == 0 ? "" : ",").append(indexes[k]);
      if (last > k) {
        ranges.append('-').append(indexes[last]);
      }
      k = last + 1;
    }
    return ranges.toString();
  }

  /** The indexes {@link #ranges} wrote. */
  private static int[] indexes(String ranges) {
    return NumberRanges.expand(ranges).stream().mapToInt(Math::toIntExact).toArray();
  }

  private static TraceJob job(String line) {
    String[] fields = line.trim().split(" ");
    int blocks = Integer.parseInt(fields[1]);
    int[] part = null;
    if (fields[fields.length - 1].startsWith(PART)) {
      part = indexes(fields[fields.length - 1].substring(PART.length()));
      fields = Arrays.copyOf(fields, fields.length - 1);
    }
    if (fields.length != 3 + blocks) {
      throw new IllegalArgumentException(blocks + " blocks but " + (fields.length - 3)
          + " reads");
    }
    int[] replicas = new int[blocks * PumaWorkload.REPLICATION];
    int[] named = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      String read = fields[3 + i];
      int slash = read.indexOf('/');
      String[] nodes = read.substring(0, slash).split(",");
      if (nodes.length != PumaWorkload.REPLICATION) {
        throw new IllegalArgumentException("read " + read + " lists " + nodes.length
            + " replicas");
      }
      for (int r = 0; r < nodes.length; r++) {
        replicas[i * PumaWorkload.REPLICATION + r] = Integer.parseInt(nodes[r]);
      }
      named[i] = Integer.parseInt(read.substring(slash + 1));
    }
    return new TraceJob(new DataSet(Integer.parseInt(fields[0]), blocks),
        Long.parseLong(fields[2]), replicas, named, part);
  }
}
