package org.mpcache.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** The shuffle-heavy benchmarks on PUMA-I (tuples), PUMA-II (edges) and PUMA-III (terms). */
final class StructureBenchmarks {
  private StructureBenchmarks() {
  }

  /**
   * self-join: Apriori's candidate generation. Ascending k-tuples sharing their first k-1 items
   * join into one (k+1)-tuple per pair of last items, {@code a,b,c,d,e,f} per line.
   */
  static final class SelfJoin extends BasicBenchmark {
    SelfJoin() {
      super("self-join", InputSource.PUMA_I, PrefixMapper.class, null, JoinReducer.class,
          Text.class);
    }

    @Override
    void configure(Job job) {
      job.setOutputValueClass(NullWritable.class);
    }

    /** Joins the input in memory (its prefixes and last items) and compares every candidate. */
    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      Map<String, Set<Integer>> lastsByPrefix = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        int cut = line.lastIndexOf(',');
        lastsByPrefix.computeIfAbsent(line.substring(0, cut), p -> new HashSet<>())
            .add(Integer.valueOf(line.substring(cut + 1)));
      });
      MultisetDigest expected = new MultisetDigest();
      lastsByPrefix.forEach((prefix, lasts) -> candidates(prefix, lasts).forEach(expected::add));
      expectDigest(expected, Lines.digest(conf, output), output, "candidate tuples");
    }
  }

  /** {@code prefix,a,b} for every pair {@code a < b} of {@code lasts}. */
  static List<String> candidates(String prefix, Set<Integer> lasts) {
    List<Integer> sorted = new ArrayList<>(new TreeSet<>(lasts));
    List<String> candidates = new ArrayList<>();
    for (int i = 0; i < sorted.size(); i++) {
      for (int j = i + 1; j < sorted.size(); j++) {
        candidates.add(prefix + ',' + sorted.get(i) + ',' + sorted.get(j));
      }
    }
    return candidates;
  }

  /** Emits (first k-1 items, last item) of a tuple. */
  public static class PrefixMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text prefix = new Text();
    private final Text last = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      int cut = text.lastIndexOf(',');
      prefix.set(text.substring(0, cut));
      last.set(text.substring(cut + 1));
      context.write(prefix, last);
    }
  }

  /** Writes the candidates of one prefix. */
  public static class JoinReducer extends Reducer<Text, Text, Text, NullWritable> {
    private final Text candidate = new Text();

    @Override
    protected void reduce(Text prefix, Iterable<Text> lasts, Context context)
        throws IOException, InterruptedException {
      Set<Integer> items = new HashSet<>();
      lasts.forEach(last -> items.add(Integer.valueOf(last.toString())));
      for (String tuple : candidates(prefix.toString(), items)) {
        candidate.set(tuple);
        context.write(candidate, NullWritable.get());
      }
    }
  }

  /**
   * adjacency-list: every vertex with its sorted out- and in-neighbours,
   * {@code vertex<TAB>out=a,b<TAB>in=c,d}.
   */
  static final class AdjacencyList extends BasicBenchmark {
    AdjacencyList() {
      super("adjacency-list", InputSource.PUMA_II, EdgeMapper.class, null,
          AdjacencyReducer.class, Text.class);
    }

    /** The out-lists and the in-lists each give back exactly the input's edges. */
    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      MultisetDigest edges = Lines.digest(conf, input);
      MultisetDigest outEdges = new MultisetDigest();
      MultisetDigest inEdges = new MultisetDigest();
      Set<String> vertices = new HashSet<>();
      Lines.forEach(conf, output, line -> {
        String[] fields = line.split("\t", -1);
        expect(fields.length == 3 && fields[1].startsWith("out=") && fields[2].startsWith("in="),
            output, "not 'vertex<TAB>out=...<TAB>in=...': " + line);
        String vertex = fields[0];
        expect(vertices.add(vertex), output, "vertex " + vertex + " is written twice");
        for (long neighbour : ascending(fields[1].substring(4), output, line)) {
          outEdges.add(vertex + '\t' + neighbour);
        }
        for (long neighbour : ascending(fields[2].substring(3), output, line)) {
          inEdges.add(Long.toString(neighbour) + '\t' + vertex);
        }
      });
      expectDigest(edges, outEdges, output, "edges of the out-lists");
      expectDigest(edges, inEdges, output, "edges of the in-lists");
    }

    /** The numbers of a list, which must not descend. */
    private long[] ascending(String list, Path output, String line) throws OutputCheckFailed {
      if (list.isEmpty()) {
        return new long[0];
      }
      String[] items = list.split(",");
      long[] numbers = new long[items.length];
      for (int i = 0; i < items.length; i++) {
        numbers[i] = Long.parseLong(items[i]);
        expect(i == 0 || numbers[i - 1] <= numbers[i], output, "unsorted list: " + line);
      }
      return numbers;
    }
  }

  /** Emits (source, "o" + destination) and (destination, "i" + source) for every edge. */
  public static class EdgeMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text vertex = new Text();
    private final Text neighbour = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      String src = Lines.key(text);
      String dst = Lines.value(text);
      vertex.set(src);
      neighbour.set("o" + dst);
      context.write(vertex, neighbour);
      vertex.set(dst);
      neighbour.set("i" + src);
      context.write(vertex, neighbour);
    }
  }

  /** Sorts a vertex's out- and in-neighbours into its two lists. */
  public static class AdjacencyReducer extends Reducer<Text, Text, Text, Text> {
    private final Text lists = new Text();

    @Override
    protected void reduce(Text vertex, Iterable<Text> neighbours, Context context)
        throws IOException, InterruptedException {
      List<Long> out = new ArrayList<>();
      List<Long> in = new ArrayList<>();
      for (Text neighbour : neighbours) {
        String n = neighbour.toString();
        (n.charAt(0) == 'o' ? out : in).add(Long.valueOf(n.substring(1)));
      }
      lists.set("out=" + joinSorted(out) + "\tin=" + joinSorted(in));
      context.write(vertex, lists);
    }

    private static String joinSorted(List<Long> numbers) {
      numbers.sort(null);
      StringBuilder joined = new StringBuilder();
      numbers.forEach(n -> joined.append(joined.length() == 0 ? "" : ",").append(n));
      return joined.toString();
    }
  }

  /**
   * ranked-inverted-index: every word with its documents, most occurrences first,
   * {@code word<TAB>doc:count,doc:count,...}.
   */
  static final class RankedInvertedIndex extends BasicBenchmark {
    RankedInvertedIndex() {
      super("ranked-inverted-index", InputSource.PUMA_III, PostingMapper.class, null,
          RankReducer.class, Text.class);
    }

    /** The postings give back exactly the input's lines, ranked, each word once. */
    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      MultisetDigest postings = new MultisetDigest();
      Set<String> words = new HashSet<>();
      Lines.forEach(conf, output, line -> {
        String word = Lines.key(line);
        expect(words.add(word), output, "'" + word + "' is written twice");
        long previous = Long.MAX_VALUE;
        for (String posting : Lines.value(line).split(",")) {
          int colon = posting.lastIndexOf(':');
          expect(colon > 0, output, "not 'doc:count': " + posting);
          long count = Long.parseLong(posting.substring(colon + 1));
          expect(count <= previous, output, "the documents of '" + word + "' are not ranked");
          previous = count;
          postings.add(word + '\t' + posting.substring(0, colon) + '\t' + count);
        }
      });
      expectDigest(Lines.digest(conf, input), postings, output, "postings");
    }
  }

  /** Emits (word, "doc:count") of a term line. */
  public static class PostingMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text word = new Text();
    private final Text posting = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] fields = line.toString().split("\t");
      word.set(fields[0]);
      posting.set(fields[1] + ':' + fields[2]);
      context.write(word, posting);
    }
  }

  /** Sorts a word's postings by count, highest first (then by document). */
  public static class RankReducer extends Reducer<Text, Text, Text, Text> {
    private final Text ranked = new Text();

    @Override
    protected void reduce(Text word, Iterable<Text> postings, Context context)
        throws IOException, InterruptedException {
      List<String> all = new ArrayList<>();
      postings.forEach(p -> all.add(p.toString()));
      all.sort((a, b) -> {
        int byCount = Long.compare(count(b), count(a));
        return byCount != 0 ? byCount : a.compareTo(b);
      });
      ranked.set(String.join(",", all));
      context.write(word, ranked);
    }

    private static long count(String posting) {
      return Long.parseLong(posting.substring(posting.lastIndexOf(':') + 1));
    }
  }
}
