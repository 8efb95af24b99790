package org.mpcache.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** The benchmarks on Wikipedia-like text: documents {@code docId<TAB>words}, one per line. */
final class TextBenchmarks {
  private TextBenchmarks() {
  }

  /** The words of a document line, after its id. */
  static String[] words(String line) {
    int tab = line.indexOf('\t');
    return line.substring(tab + 1).split(" ");
  }

  static String docId(String line) {
    return line.substring(0, line.indexOf('\t'));
  }

  /** Sums long counts: combiner and reducer of the counting jobs. */
  public static class SumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    private final LongWritable sum = new LongWritable();

    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long total = 0;
      for (LongWritable value : values) {
        total += value.get();
      }
      sum.set(total);
      context.write(key, sum);
    }
  }

  /** Reads an output of {@code key<TAB>count} lines into a map. */
  static Map<String, Long> counts(Configuration conf, Path output) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    Lines.forEach(conf, output, line -> {
      int tab = line.lastIndexOf('\t');
      counts.merge(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)), Long::sum);
    });
    return counts;
  }

  /** grep: how often each match of a regular expression occurs. */
  static final class Grep extends BasicBenchmark {
    static final String PATTERN_KEY = "puma.grep.pattern";
    static final String DEFAULT_PATTERN = "\\bk[a-f][a-z]*\\b";

    Grep() {
      super("grep", InputSource.WIKIPEDIA, GrepMapper.class, SumReducer.class, SumReducer.class,
          LongWritable.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Pattern pattern = Pattern.compile(conf.get(PATTERN_KEY, DEFAULT_PATTERN));
      Map<String, Long> expected = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        Matcher m = pattern.matcher(line);
        while (m.find()) {
          expected.merge(m.group(), 1L, Long::sum);
        }
      });
      Map<String, Long> actual = counts(conf, output);
      expect(expected.equals(actual), output, "match counts differ from the input's: expected "
          + expected.size() + " distinct matches, got " + actual.size());
    }
  }

  public static class GrepMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text match = new Text();
    private Pattern pattern;

    @Override
    protected void setup(Context context) {
      pattern = Pattern.compile(context.getConfiguration().get(Grep.PATTERN_KEY,
          Grep.DEFAULT_PATTERN));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      Matcher m = pattern.matcher(line.toString());
      while (m.find()) {
        match.set(m.group());
        context.write(match, ONE);
      }
    }
  }

  /** word-count: occurrences of every word. */
  static final class WordCount extends BasicBenchmark {
    WordCount() {
      super("word-count", InputSource.WIKIPEDIA, WordMapper.class, SumReducer.class,
          SumReducer.class, LongWritable.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Map<String, Long> expected = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        for (String word : words(line)) {
          expected.merge(word, 1L, Long::sum);
        }
      });
      Map<String, Long> actual = counts(conf, output);
      expect(expected.equals(actual), output, "word counts differ from the input's ("
          + expected.size() + " words expected, " + actual.size() + " found)");
    }
  }

  public static class WordMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      for (String w : words(line.toString())) {
        word.set(w);
        context.write(word, ONE);
      }
    }
  }

  /** inverted-index: for every word, the sorted documents that contain it. */
  static final class InvertedIndex extends BasicBenchmark {
    InvertedIndex() {
      super("inverted-index", InputSource.WIKIPEDIA, WordDocMapper.class, null,
          DocListReducer.class, Text.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      // Every word must be indexed; the document lists are compared for a sample of words.
      java.util.Set<String> vocabulary = new java.util.HashSet<>();
      Map<String, TreeSet<String>> expected = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        String doc = docId(line);
        for (String word : words(line)) {
          vocabulary.add(word);
          if (Math.floorMod(word.hashCode(), 64) == 0) {
            expected.computeIfAbsent(word, w -> new TreeSet<>()).add(doc);
          }
        }
      });
      Map<String, String> actual = new HashMap<>();
      Lines.forEach(conf, output, line -> {
        String word = line.substring(0, line.indexOf('\t'));
        if (expected.containsKey(word)) {
          actual.put(word, line.substring(line.indexOf('\t') + 1));
        }
        vocabulary.remove(word);
      });
      expect(vocabulary.isEmpty(), output, vocabulary.size() + " words of the input are missing");
      for (Map.Entry<String, TreeSet<String>> entry : expected.entrySet()) {
        expect(String.join(",", entry.getValue()).equals(actual.get(entry.getKey())), output,
            "the documents of '" + entry.getKey() + "' are wrong");
      }
    }
  }

  public static class WordDocMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text word = new Text();
    private final Text doc = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      doc.set(docId(text));
      for (String w : new TreeSet<>(List.of(words(text)))) {
        word.set(w);
        context.write(word, doc);
      }
    }
  }

  public static class DocListReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text word, Iterable<Text> docs, Context context)
        throws IOException, InterruptedException {
      TreeSet<String> sorted = new TreeSet<>();
      docs.forEach(d -> sorted.add(d.toString()));
      context.write(word, new Text(String.join(",", sorted)));
    }
  }

  /** term-vector: per document, the words that occur at least three times, with counts. */
  static final class TermVector extends BasicBenchmark {
    static final int CUTOFF = 3;

    TermVector() {
      super("term-vector", InputSource.WIKIPEDIA, DocWordMapper.class, null,
          TermVectorReducer.class, Text.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      Map<String, String> expected = new HashMap<>();
      Lines.forEach(conf, input, line -> {
        String vector = termVector(List.of(words(line)));
        if (!vector.isEmpty()) {
          expected.put(docId(line), vector);
        }
      });
      Map<String, String> actual = new HashMap<>();
      Lines.forEach(conf, output, line -> actual.put(line.substring(0, line.indexOf('\t')),
          line.substring(line.indexOf('\t') + 1)));
      expect(expected.equals(actual), output, "term vectors differ from the input's ("
          + expected.size() + " documents expected, " + actual.size() + " found)");
    }
  }

  /** "word:count" of the words occurring at least {@link TermVector#CUTOFF} times, sorted. */
  static String termVector(Iterable<String> words) {
    Map<String, Integer> counts = new TreeMap<>();
    words.forEach(w -> counts.merge(w, 1, Integer::sum));
    List<String> terms = new ArrayList<>();
    counts.forEach((w, c) -> {
      if (c >= TermVector.CUTOFF) {
        terms.add(w + ":" + c);
      }
    });
    return String.join(",", terms);
  }

  public static class DocWordMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text doc = new Text();
    private final Text word = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      doc.set(docId(text));
      for (String w : words(text)) {
        word.set(w);
        context.write(doc, word);
      }
    }
  }

  public static class TermVectorReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text doc, Iterable<Text> words, Context context)
        throws IOException, InterruptedException {
      List<String> all = new ArrayList<>();
      words.forEach(w -> all.add(w.toString()));
      String vector = termVector(all);
      if (!vector.isEmpty()) {
        context.write(doc, new Text(vector));
      }
    }
  }

  /** sequence-count: occurrences of every three-word sequence, per document. */
  static final class SequenceCount extends BasicBenchmark {
    SequenceCount() {
      super("sequence-count", InputSource.WIKIPEDIA, SequenceMapper.class, SumReducer.class,
          SumReducer.class, LongWritable.class);
    }

    @Override
    public void check(Configuration conf, Path input, Path output) throws IOException {
      long[] sequences = {0};
      Lines.forEach(conf, input, line -> sequences[0] += Math.max(0, words(line).length - 2));
      long[] counted = {0, 0};
      Lines.forEach(conf, output, line -> {
        counted[0] += Long.parseLong(line.substring(line.lastIndexOf('\t') + 1));
        counted[1]++;
      });
      expect(sequences[0] == counted[0], output, "counts sum to " + counted[0] + ", the input has "
          + sequences[0] + " three-word sequences");
    }
  }

  public static class SequenceMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text sequence = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      String doc = docId(text);
      String[] w = words(text);
      for (int i = 0; i + 2 < w.length; i++) {
        sequence.set(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2] + '\t' + doc);
        context.write(sequence, ONE);
      }
    }
  }
}
