package org.mpcache.bench.harness;

/**
 * One timed job of one configuration.
 *
 * @param hitRatio share of the input bytes served from the cache (SSD or RAM), NaN without one
 * @param hddUtilization busy share of the emulated HDDs while the job ran, NaN when not emulated
 * @param busiestHdd busy share of the busiest emulated HDD while the job ran
 * @param cpuUtilization busy share of the machine's cores while the job ran (all JVMs of the
 *     cluster share them), NaN where /proc/stat is missing
 * @param dataLocalMaps share of map tasks that ran on a node holding their block's replica
 * @param cacheLocalMaps share of the map tasks whose block was on an SSD that ran on a node
 *     holding it there (mpCache's job counters), NaN where no map's block was on an SSD
 * @param shuffleBytes map output bytes the reduces fetched (compressed, as on disk)
 * @param localizedOnSsd share of the localized bytes tasks asked for that the slaves granted on
 *     SSD (the rest went to the HDD local dirs), NaN where localized data is not cached
 */
public record JobResult(ClusterSetup setup, int repeat, int index, String benchmark,
    String input, long inputBytes, double seconds, double mapSeconds, double reduceSeconds,
    double hitRatio, double hddUtilization, double busiestHdd, double cpuUtilization,
    double dataLocalMaps, double cacheLocalMaps, long shuffleBytes, double localizedOnSsd, boolean outputChecked) {

  static final String CSV_HEADER = "configuration,repeat,job,benchmark,input,input_bytes,"
      + "seconds,map_seconds,reduce_seconds,hit_ratio,hdd_utilization,busiest_hdd,"
      + "cpu_utilization,data_local_maps,cache_local_maps,shuffle_bytes,localized_on_ssd,output_checked";

  String csv() {
    return String.join(",", setup.label(), Integer.toString(repeat), Integer.toString(index),
        benchmark, input, Long.toString(inputBytes), fmt(seconds), fmt(mapSeconds),
        fmt(reduceSeconds), fmt(hitRatio), fmt(hddUtilization), fmt(busiestHdd),
        fmt(cpuUtilization), fmt(dataLocalMaps), fmt(cacheLocalMaps), Long.toString(shuffleBytes),
        fmt(localizedOnSsd), Boolean.toString(outputChecked));
  }

  private static String fmt(double value) {
    return Double.isNaN(value) ? "" : String.format(java.util.Locale.ROOT, "%.3f", value);
  }
}
