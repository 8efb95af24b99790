package org.mpcache.shuffle;

import static org.mpcache.conf.MpCacheConfigKeys.MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY;

import java.util.List;

/**
 * Local dirs chosen in proportion to their devices' bandwidth ("The Truth About MapReduce
 * Performance on SSDs" §4.2): round-robin gives every dir the same bytes, so with disks of
 * different speeds the fast ones idle while the slow ones finish. Configured as
 * {@code <dir prefix>=<MB/s>} pairs; pure arithmetic.
 */
final class BandwidthWeights {
  private BandwidthWeights() {
  }

  /**
   * The bandwidth of each dir: the value of the longest prefix that starts it.
   *
   * @throws IllegalArgumentException naming the key for a malformed pair or a dir no pair covers
   */
  static double[] of(List<String> dirs, String[] pairs) {
    String[] prefixes = new String[pairs.length];
    double[] values = new double[pairs.length];
    for (int i = 0; i < pairs.length; i++) {
      int eq = pairs[i].lastIndexOf('=');
      try {
        if (eq <= 0) {
          throw new NumberFormatException("no '='");
        }
        prefixes[i] = pairs[i].substring(0, eq).trim();
        values[i] = Double.parseDouble(pairs[i].substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY + ": '" + pairs[i]
            + "' is not <dir prefix>=<MB/s>");
      }
      if (!(values[i] > 0) || Double.isInfinite(values[i])) {
        throw new IllegalArgumentException(MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY + ": the bandwidth of '" + prefixes[i]
            + "' must be above 0, got " + values[i]);
      }
    }
    double[] weights = new double[dirs.size()];
    for (int d = 0; d < dirs.size(); d++) {
      int longest = -1;
      for (int i = 0; i < prefixes.length; i++) {
        if (dirs.get(d).startsWith(prefixes[i])
            && (longest < 0 || prefixes[i].length() > prefixes[longest].length())) {
          longest = i;
        }
      }
      if (longest < 0) {
        throw new IllegalArgumentException(MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY + ": no bandwidth for local dir " + dirs.get(d));
      }
      weights[d] = values[longest];
    }
    return weights;
  }

  /**
   * The dir a draw {@code u} in [0, 1) picks among the {@code eligible} ones, each with a chance
   * proportional to its weight; -1 when none is eligible.
   */
  static int choose(double[] weights, boolean[] eligible, double u) {
    double total = 0;
    for (int i = 0; i < weights.length; i++) {
      total += eligible[i] ? weights[i] : 0;
    }
    if (total <= 0) {
      return -1;
    }
    double point = u * total;
    int last = -1;
    for (int i = 0; i < weights.length; i++) {
      if (eligible[i]) {
        last = i;
        point -= weights[i];
        if (point < 0) {
          return i;
        }
      }
    }
    return last; // rounding at u close to 1
  }
}
