package org.mpcache.bench.harness;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.mpcache.bench.device.IoCause;

/**
 * One timed job of one configuration, a line of a results CSV.
 *
 * @param seed of the job stream (mix, data and placement) the job belongs to
 * @param index of the job among the timed jobs of its stream, from 0
 * @param inputBytes bytes of the job's input data set
 * @param mapSeconds from the job's start to its last map's end
 * @param reduceSeconds the rest of the job
 * @param hitRatio share of the job's input bytes served from the cache (SSD or RAM), NaN
 *     without one; other HDFS reads (job files, jars) are not in it
 * @param hddUtilization busy share of the emulated HDDs while the job ran, NaN when not emulated
 * @param busiestHdd busy share of the busiest emulated HDD while the job ran
 * @param busiestHddInMaps busy share of the busiest emulated HDD during the job's map phase
 * @param cpuUtilization busy share of the machine's cores while the job ran (all JVMs of the
 *     cluster share them), NaN where /proc/stat is missing or the cluster runs elsewhere
 * @param dataLocalMaps share of map tasks that ran on a node holding their block's replica
 * @param cacheLocalMaps share of the map tasks whose block was on an SSD that ran on a node
 *     holding it there (mpCache's job counters), NaN where no map's block was on an SSD
 * @param shuffleBytes map output bytes the reduces fetched (compressed, as on disk)
 * @param localizedOnSsd share of the localized bytes tasks asked for that the slaves granted on
 *     SSD (the rest went to the HDD local dirs), NaN where localized data is not cached
 * @param firstRead whether no earlier job of the stream (history included) read this input
 * @param outputChecked whether the job's output was checked against its local oracle
 * @param hddSecondsByCause busy seconds of the emulated HDDs while the job ran, summed over them,
 *     for each {@link IoCause} by its ordinal; NaN each when not emulated or not measured (results
 *     of earlier runs)
 * @param leastInputRoomBytes each mpCache slave's least room for input data while the job ran,
 *     in bytes, in node order: less than its cache leaves input where the Dynamic Pool lent room
 *     to localized data; empty when not sampled (no mpCache, an existing cluster, results of
 *     earlier runs)
 * @param sitting the results folder the job was run in, where a report merges several
 *     ({@code --merge}): its jobs pair with the baseline's of the same sitting only, since a
 *     machine's speed drifts between days; empty for a folder's own runs
 */
public record JobResult(ClusterSetup setup, long seed, int index, String benchmark,
    String input, long inputBytes, double seconds, double mapSeconds, double reduceSeconds,
    double hitRatio, double hddUtilization, double busiestHdd, double busiestHddInMaps,
    double cpuUtilization, double dataLocalMaps, double cacheLocalMaps, long shuffleBytes,
    double localizedOnSsd, boolean firstRead, boolean outputChecked,
    List<Double> hddSecondsByCause, List<Long> leastInputRoomBytes, String sitting) {

  /** The HDD time of a job whose devices were not emulated or not measured by cause. */
  static final List<Double> NOT_MEASURED =
      Collections.nCopies(IoCause.values().length, Double.NaN);
  private static final String[] BASE_COLUMNS = ("configuration,seed,job,benchmark,input,"
      + "input_bytes,seconds,map_seconds,reduce_seconds,hit_ratio,hdd_utilization,busiest_hdd,"
      + "busiest_hdd_in_maps,cpu_utilization,data_local_maps,cache_local_maps,shuffle_bytes,"
      + "localized_on_ssd,first_read,output_checked").split(",");

  /** The columns lines of earlier runs end with, before the sitting. */
  private static final int MEASURED_COLUMNS = BASE_COLUMNS.length + IoCause.values().length;

  static final String CSV_HEADER = String.join(",", BASE_COLUMNS) + Arrays.stream(
      IoCause.values()).map(cause -> ",hdd_" + cause.name().toLowerCase(Locale.ROOT) + "_seconds")
      .collect(Collectors.joining()) + ",least_input_room_bytes,sitting";

  /** Slaves' figures in one column. */
  private static final String SLAVE_SEPARATOR = ";";

  public JobResult {
    if (hddSecondsByCause.size() != IoCause.values().length) {
      throw new IllegalArgumentException("one HDD time per cause expected, not "
          + hddSecondsByCause);
    }
    hddSecondsByCause = List.copyOf(hddSecondsByCause);
    leastInputRoomBytes = List.copyOf(leastInputRoomBytes);
    if (sitting.contains(",")) {
      throw new IllegalArgumentException("a sitting's name holds no comma: " + sitting);
    }
  }

  /** The HDDs' busy seconds for {@code cause} while the job ran; NaN when not measured. */
  double hddSeconds(IoCause cause) {
    return hddSecondsByCause.get(cause.ordinal());
  }

  String csv() {
    return String.join(",", setup.label(), Long.toString(seed), Integer.toString(index),
        benchmark, input, Long.toString(inputBytes), fmt(seconds), fmt(mapSeconds),
        fmt(reduceSeconds), fmt(hitRatio), fmt(hddUtilization), fmt(busiestHdd),
        fmt(busiestHddInMaps), fmt(cpuUtilization), fmt(dataLocalMaps), fmt(cacheLocalMaps),
        Long.toString(shuffleBytes), fmt(localizedOnSsd), Boolean.toString(firstRead),
        Boolean.toString(outputChecked)) + hddSecondsByCause.stream()
            .map(seconds -> "," + fmt(seconds)).collect(Collectors.joining()) + ","
        + leastInputRoomBytes.stream().map(String::valueOf)
            .collect(Collectors.joining(SLAVE_SEPARATOR)) + "," + sitting;
  }

  JobResult withOutputChecked() {
    return with(true, sitting);
  }

  /** The same job, run in the sitting of that name. */
  JobResult inSitting(String name) {
    return with(outputChecked, name);
  }

  private JobResult with(boolean checked, String sittingName) {
    return new JobResult(setup, seed, index, benchmark, input, inputBytes, seconds, mapSeconds,
        reduceSeconds, hitRatio, hddUtilization, busiestHdd, busiestHddInMaps, cpuUtilization,
        dataLocalMaps, cacheLocalMaps, shuffleBytes, localizedOnSsd, firstRead, checked,
        hddSecondsByCause, leastInputRoomBytes, sittingName);
  }

  /**
   * The job a line of {@link #csv()} describes; lines of earlier runs, without the HDD time by
   * cause or the slaves' room, are read as not measuring them, and without the sitting as a
   * folder's own.
   */
  static JobResult parse(String line) {
    String[] f = line.split(",", -1);
    int columns = CSV_HEADER.split(",").length;
    if (f.length != columns && f.length != MEASURED_COLUMNS + 1 && f.length != MEASURED_COLUMNS
        && f.length != BASE_COLUMNS.length) {
      throw new IllegalArgumentException("not a line of a results CSV (" + CSV_HEADER + "): "
          + line);
    }
    List<Long> room = f.length != columns || f[MEASURED_COLUMNS].isEmpty() ? List.of()
        : Arrays.stream(f[MEASURED_COLUMNS].split(SLAVE_SEPARATOR)).map(Long::valueOf).toList();
    return new JobResult(ClusterSetup.of(f[0]), Long.parseLong(f[1]), Integer.parseInt(f[2]),
        f[3], f[4], Long.parseLong(f[5]), num(f[6]), num(f[7]), num(f[8]), num(f[9]),
        num(f[10]), num(f[11]), num(f[12]), num(f[13]), num(f[14]), num(f[15]),
        Long.parseLong(f[16]), num(f[17]), Boolean.parseBoolean(f[18]),
        Boolean.parseBoolean(f[19]), f.length == BASE_COLUMNS.length ? NOT_MEASURED
            : Arrays.stream(f, BASE_COLUMNS.length, MEASURED_COLUMNS).map(JobResult::num)
                .toList(), room, f.length > MEASURED_COLUMNS ? f[f.length - 1] : "");
  }

  private static String fmt(double value) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
  }

  private static double num(String field) {
    return field.isEmpty() ? Double.NaN : Double.parseDouble(field);
  }
}
