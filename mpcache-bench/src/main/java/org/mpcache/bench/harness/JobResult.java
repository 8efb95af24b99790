package org.mpcache.bench.harness;

/**
 * One timed job of one configuration.
 *
 * @param hitRatio share of the input bytes served from the cache (SSD or RAM), NaN without one
 * @param hddUtilization busy share of the emulated HDDs while the job ran, NaN when not emulated
 */
public record JobResult(ClusterSetup setup, int repeat, int index, String benchmark,
    String input, long inputBytes, double seconds, double mapSeconds, double reduceSeconds,
    double hitRatio, double hddUtilization, boolean outputChecked) {

  static final String CSV_HEADER = "configuration,repeat,job,benchmark,input,input_bytes,"
      + "seconds,map_seconds,reduce_seconds,hit_ratio,hdd_utilization,output_checked";

  String csv() {
    return String.join(",", setup.label(), Integer.toString(repeat), Integer.toString(index),
        benchmark, input, Long.toString(inputBytes), fmt(seconds), fmt(mapSeconds),
        fmt(reduceSeconds), fmt(hitRatio), fmt(hddUtilization), Boolean.toString(outputChecked));
  }

  private static String fmt(double value) {
    return Double.isNaN(value) ? "" : String.format(java.util.Locale.ROOT, "%.3f", value);
  }
}
