package org.mpcache.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** The shuffle-heavy benchmarks on PUMA-I (tuples), PUMA-II (edges) and PUMA-III (terms). */
final class StructureBenchmarks {
  private StructureBenchmarks() {
  }

  /**
   * self-join: Apriori's candidate generation. Tuples sharing their first k-1 items join into a
   * (k+1)-tuple per pair of last items.
   */
  static final class SelfJoin extends BasicBenchmark {
    SelfJoin() {
      super("self-join", InputSource.PUMA_I, PrefixMapper.class, null, JoinReducer.class,
          Text.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Map<String, java.util.Set<String>> groups = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        int cut = line.lastIndexOf(',');
        groups.computeIfAbsent(line.substring(0, cut), p -> new java.util.HashSet<>())
            .add(line.substring(cut + 1));
      });
      long expected = 0;
      for (java.util.Set<String> lasts : groups.values()) {
        expected += (long) lasts.size() * (lasts.size() - 1) / 2;
      }
      long[] found = {0};
      List<String> wrong = new ArrayList<>();
      Lines.forEach(conf, output, line -> {
        found[0]++;
        String[] items = line.split(",");
        boolean ascending = items.length == InputSource.TUPLE_SIZE + 1;
        for (int i = 1; ascending && i < items.length; i++) {
          ascending = Integer.parseInt(items[i - 1].trim()) < Integer.parseInt(items[i].trim());
        }
        if (!ascending && wrong.size() < 3) {
          wrong.add(line);
        }
      });
      expect(wrong.isEmpty(), output, "not ascending (k+1)-tuples: " + wrong);
      expect(found[0] == expected, output, found[0] + " candidates, the input joins into "
          + expected);
    }
  }

  public static class PrefixMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      int cut = text.lastIndexOf(',');
      context.write(new Text(text.substring(0, cut)), new Text(text.substring(cut + 1)));
    }
  }

  public static class JoinReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text prefix, Iterable<Text> lasts, Context context)
        throws IOException, InterruptedException {
      java.util.TreeSet<Integer> items = new java.util.TreeSet<>();
      lasts.forEach(t -> items.add(Integer.parseInt(t.toString())));
      List<Integer> sorted = new ArrayList<>(items);
      for (int i = 0; i < sorted.size(); i++) {
        for (int j = i + 1; j < sorted.size(); j++) {
          context.write(new Text(prefix + "," + sorted.get(i) + "," + sorted.get(j)), null);
        }
      }
    }
  }

  /** adjacency-list: every vertex with its sorted out- and in-neighbours. */
  static final class AdjacencyList extends BasicBenchmark {
    AdjacencyList() {
      super("adjacency-list", InputSource.PUMA_II, EdgeMapper.class, null,
          AdjacencyReducer.class, Text.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      long[] edges = {0};
      Map<String, Long> outDegree = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        edges[0]++;
        outDegree.merge(line.substring(0, line.indexOf('\t')), 1L, Long::sum);
      });
      long[] totals = {0, 0};
      List<String> wrong = new ArrayList<>();
      Lines.forEach(conf, output, line -> {
        String[] parts = line.split("\t", -1);
        long out = parts[1].length() <= 4 ? 0 : parts[1].substring(4).split(",").length;
        long in = parts[2].length() <= 3 ? 0 : parts[2].substring(3).split(",").length;
        totals[0] += out;
        totals[1] += in;
        if (out != outDegree.getOrDefault(parts[0], 0L) && wrong.size() < 3) {
          wrong.add(parts[0]);
        }
      });
      expect(wrong.isEmpty(), output, "wrong out-neighbours of vertices " + wrong);
      expect(totals[0] == edges[0] && totals[1] == edges[0], output, "lists hold " + totals[0]
          + " out- and " + totals[1] + " in-neighbours for " + edges[0] + " edges");
    }
  }

  public static class EdgeMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      int tab = text.indexOf('\t');
      String src = text.substring(0, tab);
      String dst = text.substring(tab + 1);
      context.write(new Text(src), new Text("o" + dst));
      context.write(new Text(dst), new Text("i" + src));
    }
  }

  public static class AdjacencyReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text vertex, Iterable<Text> neighbours, Context context)
        throws IOException, InterruptedException {
      List<Long> out = new ArrayList<>();
      List<Long> in = new ArrayList<>();
      for (Text n : neighbours) {
        String s = n.toString();
        (s.charAt(0) == 'o' ? out : in).add(Long.parseLong(s.substring(1)));
      }
      Collections.sort(out);
      Collections.sort(in);
      context.write(vertex, new Text("out=" + join(out) + "\tin=" + join(in)));
    }

    private static String join(List<Long> values) {
      StringBuilder text = new StringBuilder();
      values.forEach(v -> text.append(text.length() == 0 ? "" : ",").append(v));
      return text.toString();
    }
  }

  /** ranked-inverted-index: every word with its documents, most occurrences first. */
  static final class RankedInvertedIndex extends BasicBenchmark {
    RankedInvertedIndex() {
      super("ranked-inverted-index", InputSource.PUMA_III, TermMapper.class, null,
          RankReducer.class, Text.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Map<String, Long> entries = new HashMap<>();
      Lines.forEach(conf, input, line -> entries.merge(line.substring(0, line.indexOf('\t')),
          1L, Long::sum));
      Map<String, Long> found = new HashMap<>();
      List<String> unranked = new ArrayList<>();
      Lines.forEach(conf, output, line -> {
        String word = line.substring(0, line.indexOf('\t'));
        String[] postings = line.substring(line.indexOf('\t') + 1).split(",");
        found.put(word, (long) postings.length);
        for (int i = 1; i < postings.length && unranked.size() < 3; i++) {
          if (count(postings[i - 1]) < count(postings[i])) {
            unranked.add(word);
            break;
          }
        }
      });
      expect(unranked.isEmpty(), output, "postings not ranked by count for " + unranked);
      expect(entries.equals(found), output, "posting counts differ from the input's");
    }

    private static long count(String posting) {
      return Long.parseLong(posting.substring(posting.lastIndexOf(':') + 1));
    }
  }

  public static class TermMapper extends Mapper<LongWritable, Text, Text, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] parts = line.toString().split("\t");
      context.write(new Text(parts[0]), new Text(parts[1] + ":" + parts[2]));
    }
  }

  public static class RankReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text word, Iterable<Text> postings, Context context)
        throws IOException, InterruptedException {
      List<String> all = new ArrayList<>();
      postings.forEach(p -> all.add(p.toString()));
      all.sort((a, b) -> {
        long ca = Long.parseLong(a.substring(a.lastIndexOf(':') + 1));
        long cb = Long.parseLong(b.substring(b.lastIndexOf(':') + 1));
        return ca != cb ? Long.compare(cb, ca) : a.compareTo(b);
      });
      context.write(word, new Text(String.join(",", all)));
    }
  }
}
