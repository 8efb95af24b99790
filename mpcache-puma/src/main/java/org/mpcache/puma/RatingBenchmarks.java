package org.mpcache.puma;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** The benchmarks on Netflix-style ratings: {@code movieId<TAB>user_rating,...} per line. */
final class RatingBenchmarks {
  /** Fixed centres of classification and the initial ones of k-means: average ratings. */
  static final double[] CENTROIDS = {1.5, 2.5, 3.5, 4.5};

  private RatingBenchmarks() {
  }

  /** The ratings (1..5) of a movie line. */
  static int[] ratings(String line) {
    String[] entries = line.substring(line.indexOf('\t') + 1).split(",");
    int[] ratings = new int[entries.length];
    for (int i = 0; i < entries.length; i++) {
      ratings[i] = entries[i].charAt(entries[i].length() - 1) - '0';
    }
    return ratings;
  }

  static double average(int[] ratings) {
    long sum = 0;
    for (int r : ratings) {
      sum += r;
    }
    return sum / (double) ratings.length;
  }

  /** The index of the centre nearest to {@code value}. */
  static int nearest(double[] centres, double value) {
    int best = 0;
    for (int i = 1; i < centres.length; i++) {
      if (Math.abs(centres[i] - value) < Math.abs(centres[best] - value)) {
        best = i;
      }
    }
    return best;
  }

  /** Runs the check's oracle: {@code key(line)} counted over all input lines. */
  interface LineKeys {
    String[] keys(String line);
  }

  static Map<String, Long> expectedCounts(Configuration conf, Path input, LineKeys keys)
      throws IOException {
    Map<String, Long> counts = new HashMap<>();
    Lines.forEach(conf, input, line -> {
      for (String key : keys.keys(line)) {
        counts.merge(key, 1L, Long::sum);
      }
    });
    return counts;
  }

  /** A counting benchmark whose check recomputes every count from the input. */
  abstract static class Histogram extends BasicBenchmark {
    Histogram(String name, Class<? extends Mapper<?, ?, ?, ?>> mapper) {
      super(name, InputSource.NETFLIX, mapper, TextBenchmarks.SumReducer.class,
          TextBenchmarks.SumReducer.class, LongWritable.class);
    }

    abstract String[] keys(String line);

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Map<String, Long> expected = expectedCounts(conf, input, this::keys);
      Map<String, Long> actual = TextBenchmarks.counts(conf, output);
      expect(expected.equals(actual), output, "expected " + expected + ", found " + actual);
    }
  }

  /** Maps each line to the keys its benchmark counts. */
  abstract static class KeysMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text key = new Text();

    abstract String[] keys(String line);

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String k : keys(line.toString())) {
        key.set(k);
        context.write(key, ONE);
      }
    }
  }

  /** histogram-ratings: how many ratings of each value 1..5. */
  static final class HistogramRatings extends Histogram {
    HistogramRatings() {
      super("histogram-ratings", RatingKeys.class);
    }

    @Override
    String[] keys(String line) {
      return ratingKeys(line);
    }
  }

  static String[] ratingKeys(String line) {
    int[] ratings = ratings(line);
    String[] keys = new String[ratings.length];
    for (int i = 0; i < ratings.length; i++) {
      keys[i] = Integer.toString(ratings[i]);
    }
    return keys;
  }

  public static class RatingKeys extends KeysMapper {
    @Override
    String[] keys(String line) {
      return ratingKeys(line);
    }
  }

  /** histogram-movies: how many movies per average rating, in buckets of 0.5. */
  static final class HistogramMovies extends Histogram {
    HistogramMovies() {
      super("histogram-movies", MovieBucketKeys.class);
    }

    @Override
    String[] keys(String line) {
      return movieBucket(line);
    }
  }

  static String[] movieBucket(String line) {
    double bucket = Math.floor(average(ratings(line)) * 2) / 2;
    return new String[] {String.format(Locale.ROOT, "%.1f", bucket)};
  }

  public static class MovieBucketKeys extends KeysMapper {
    @Override
    String[] keys(String line) {
      return movieBucket(line);
    }
  }

  /** classification: how many movies fall in each of the fixed classes (nearest centre). */
  static final class Classification extends Histogram {
    Classification() {
      super("classification", ClassKeys.class);
    }

    @Override
    String[] keys(String line) {
      return movieClass(line);
    }
  }

  static String[] movieClass(String line) {
    return new String[] {"class" + nearest(CENTROIDS, average(ratings(line)))};
  }

  public static class ClassKeys extends KeysMapper {
    @Override
    String[] keys(String line) {
      return movieClass(line);
    }
  }

  /**
   * k-means: one iteration over the movies' average ratings from the fixed initial centres; the
   * output is each cluster's new centre and size.
   */
  static final class KMeans extends BasicBenchmark {
    KMeans() {
      super("k-means", InputSource.NETFLIX, KMeansMapper.class, null, KMeansReducer.class,
          Text.class);
    }

    @Override
    void configure(org.apache.hadoop.mapreduce.Job job) {
      job.setNumReduceTasks(CENTROIDS.length);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      double[] sums = new double[CENTROIDS.length];
      long[] sizes = new long[CENTROIDS.length];
      Lines.forEach(conf, input, line -> {
        double avg = average(ratings(line));
        int c = nearest(CENTROIDS, avg);
        sums[c] += avg;
        sizes[c]++;
      });
      Map<String, String> actual = new HashMap<>();
      Lines.forEach(conf, output, line -> actual.put(line.substring(0, line.indexOf('\t')),
          line.substring(line.indexOf('\t') + 1)));
      for (int c = 0; c < CENTROIDS.length; c++) {
        if (sizes[c] == 0) {
          continue;
        }
        String found = actual.get("cluster" + c);
        expect(found != null, output, "cluster" + c + " is missing");
        String[] parts = found.split("\t");
        expect(Long.parseLong(parts[1]) == sizes[c]
            && Math.abs(Double.parseDouble(parts[0]) - sums[c] / sizes[c]) < 1e-6, output,
            "cluster" + c + " is " + found + ", expected centre " + sums[c] / sizes[c]
                + " of " + sizes[c] + " movies");
      }
    }
  }

  public static class KMeansMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text cluster = new Text();
    private final Text value = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      double avg = average(ratings(text));
      cluster.set("cluster" + nearest(CENTROIDS, avg));
      value.set(text.substring(0, text.indexOf('\t')) + ":" + avg);
      context.write(cluster, value);
    }
  }

  public static class KMeansReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text cluster, Iterable<Text> members, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      long size = 0;
      for (Text member : members) {
        String m = member.toString();
        sum += Double.parseDouble(m.substring(m.indexOf(':') + 1));
        size++;
      }
      context.write(cluster, new Text(sum / size + "\t" + size));
    }
  }
}
