package org.mpcache.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The benchmarks on Netflix-style ratings, {@code movieId<TAB>user_rating,...} per line. A movie
 * is placed by its average rating: classification and k-means compare it with
 * {@link #CENTROIDS}.
 */
final class RatingBenchmarks {
  /** The fixed classes of classification and the initial centres of k-means. */
  static final double[] CENTROIDS = {1.5, 2.5, 3.5, 4.5};

  private RatingBenchmarks() {
  }

  /** The ratings (1..5) of a movie line. */
  static int[] ratings(String line) {
    String[] entries = Lines.value(line).split(",");
    int[] ratings = new int[entries.length];
    for (int i = 0; i < entries.length; i++) {
      ratings[i] = entries[i].charAt(entries[i].length() - 1) - '0';
    }
    return ratings;
  }

  static double averageRating(String line) {
    long sum = 0;
    int[] ratings = ratings(line);
    for (int rating : ratings) {
      sum += rating;
    }
    return sum / (double) ratings.length;
  }

  /** The name of the centroid nearest to {@code average} (the first one on a tie). */
  static String nearestCluster(double average) {
    int best = 0;
    for (int i = 1; i < CENTROIDS.length; i++) {
      if (Math.abs(CENTROIDS[i] - average) < Math.abs(CENTROIDS[best] - average)) {
        best = i;
      }
    }
    return "cluster" + best;
  }

  /** histogram-ratings: how many ratings there are of each value 1..5. */
  static final class HistogramRatings extends CountingBenchmark {
    HistogramRatings() {
      super("histogram-ratings", InputSource.NETFLIX);
    }

    @Override
    LineKeys keys(Configuration conf) {
      return line -> {
        List<String> values = new ArrayList<>();
        for (int rating : ratings(line)) {
          values.add(Integer.toString(rating));
        }
        return values;
      };
    }
  }

  /** histogram-movies: how many movies have each average rating, in buckets of 0.5. */
  static final class HistogramMovies extends CountingBenchmark {
    HistogramMovies() {
      super("histogram-movies", InputSource.NETFLIX);
    }

    @Override
    LineKeys keys(Configuration conf) {
      return line -> List.of(String.format(Locale.ROOT, "%.1f",
          Math.floor(averageRating(line) * 2) / 2));
    }
  }

  /** classification: every movie under the fixed class nearest to it, {@code class<TAB>movie}. */
  static final class Classification extends BasicBenchmark {
    Classification() {
      super("classification", InputSource.NETFLIX, NearestCentroidMapper.class, null,
          MemberReducer.class, Text.class);
    }

    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      MultisetDigest expected = new MultisetDigest();
      Lines.forEach(conf, input, line -> expected.add(nearestCluster(averageRating(line)) + '\t'
          + Lines.key(line)));
      expectDigest(expected, Lines.digest(conf, output), output, "(class, movie) lines");
    }
  }

  /**
   * k-means: one iteration over the movies' average ratings from {@link #CENTROIDS}; writes each
   * cluster's new centre, size and members, {@code cluster<TAB>centre<TAB>size<TAB>m1,m2,...}.
   */
  static final class KMeans extends BasicBenchmark {
    KMeans() {
      super("k-means", InputSource.NETFLIX, NearestCentroidMapper.class, null,
          CentroidReducer.class, Text.class);
    }

    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      Map<String, double[]> sums = new HashMap<>();
      Map<String, MultisetDigest> members = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        double average = averageRating(line);
        String cluster = nearestCluster(average);
        sums.computeIfAbsent(cluster, c -> new double[1])[0] += average;
        members.computeIfAbsent(cluster, c -> new MultisetDigest()).add(Lines.key(line));
      });
      Map<String, MultisetDigest> found = new HashMap<>();
      Lines.forEach(conf, output, line -> {
        String[] fields = line.split("\t");
        expect(fields.length == 4, output, "not 'cluster<TAB>centre<TAB>size<TAB>members': "
            + line);
        String cluster = fields[0];
        MultisetDigest movies = new MultisetDigest();
        for (String movie : fields[3].split(",")) {
          movies.add(movie);
        }
        expect(found.put(cluster, movies) == null, output, cluster + " is written twice");
        expectDigest(members.getOrDefault(cluster, new MultisetDigest()), movies, output,
            "the members of " + cluster);
        expect(Long.parseLong(fields[2]) == movies.count(), output, cluster + " has "
            + movies.count() + " members but says size " + fields[2]);
        double centre = sums.get(cluster)[0] / movies.count();
        expect(Math.abs(Double.parseDouble(fields[1]) - centre) < 1e-9, output, "the centre of "
            + cluster + " is " + fields[1] + ", not " + centre);
      });
      expect(found.keySet().equals(members.keySet()), output, "clusters " + found.keySet()
          + ", the input fills " + members.keySet());
    }
  }

  /** Emits (nearest cluster, {@code movieId:averageRating}) for every movie. */
  public static class NearestCentroidMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text cluster = new Text();
    private final Text movie = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      double average = averageRating(text);
      cluster.set(nearestCluster(average));
      movie.set(Lines.key(text) + ':' + average);
      context.write(cluster, movie);
    }
  }

  /** Writes (cluster, movieId) for every movie of a cluster. */
  public static class MemberReducer extends Reducer<Text, Text, Text, Text> {
    private final Text movieId = new Text();

    @Override
    protected void reduce(Text cluster, Iterable<Text> movies, Context context)
        throws IOException, InterruptedException {
      for (Text movie : movies) {
        String m = movie.toString();
        movieId.set(m.substring(0, m.indexOf(':')));
        context.write(cluster, movieId);
      }
    }
  }

  /** Writes a cluster's new centre (mean of its movies' averages), size and members. */
  public static class CentroidReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text cluster, Iterable<Text> movies, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      long size = 0;
      StringBuilder members = new StringBuilder();
      for (Text movie : movies) {
        String m = movie.toString();
        int colon = m.indexOf(':');
        sum += Double.parseDouble(m.substring(colon + 1));
        size++;
        members.append(size == 1 ? "" : ",").append(m, 0, colon);
      }
      context.write(cluster, new Text(sum / size + "\t" + size + "\t" + members));
    }
  }
}
