package org.mpcache.puma;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The benchmarks on Wikipedia-like text: documents {@code docId<TAB>words}, one per line, with
 * ids unique in a data set (the checks count on that).
 */
final class TextBenchmarks {
  private TextBenchmarks() {
  }

  static String docId(String line) {
    return Lines.key(line);
  }

  /** The words of a document line, after its id. */
  static String[] words(String line) {
    return Lines.value(line).split(" ");
  }

  /** grep: how often each match of a regular expression occurs in the documents. */
  static final class Grep extends CountingBenchmark {
    /** The regular expression grep looks for. */
    static final String PATTERN_KEY = "puma.grep.pattern";
    static final String DEFAULT_PATTERN = "\\bk[a-f][a-z]*\\b";

    Grep() {
      super("grep", InputSource.WIKIPEDIA);
    }

    @Override
    LineKeys keys(Configuration conf) {
      Pattern pattern = Pattern.compile(conf.get(PATTERN_KEY, DEFAULT_PATTERN));
      return line -> {
        List<String> matches = new ArrayList<>();
        for (Matcher m = pattern.matcher(line); m.find(); ) {
          matches.add(m.group());
        }
        return matches;
      };
    }
  }

  /** word-count: occurrences of every word. */
  static final class WordCount extends CountingBenchmark {
    WordCount() {
      super("word-count", InputSource.WIKIPEDIA);
    }

    @Override
    LineKeys keys(Configuration conf) {
      return line -> Arrays.asList(words(line));
    }
  }

  /**
   * sequence-count: occurrences of every three-word sequence within each document, as
   * {@code w1 w2 w3<TAB>docId<TAB>count}.
   */
  static final class SequenceCount extends CountingBenchmark {
    SequenceCount() {
      super("sequence-count", InputSource.WIKIPEDIA);
    }

    @Override
    LineKeys keys(Configuration conf) {
      return line -> {
        String doc = docId(line);
        String[] w = words(line);
        List<String> sequences = new ArrayList<>();
        for (int i = 0; i + 2 < w.length; i++) {
          sequences.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2] + '\t' + doc);
        }
        return sequences;
      };
    }

    /** Every output line against the counts of its document, in constant memory. */
    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      LineKeys keys = keys(conf);
      MultisetDigest expected = new MultisetDigest();
      Lines.forEach(conf, input, line -> {
        Map<String, Long> counts = new HashMap<>();
        keys.of(line).forEach(sequence -> counts.merge(sequence, 1L, Long::sum));
        counts.forEach((sequence, count) -> expected.add(sequence + '\t' + count));
      });
      expectDigest(expected, Lines.digest(conf, output), output, "sequence counts");
    }
  }

  /** inverted-index: for every word, the documents containing it, in ascending order. */
  static final class InvertedIndex extends BasicBenchmark {
    InvertedIndex() {
      super("inverted-index", InputSource.WIKIPEDIA, WordDocMapper.class, null,
          DocListReducer.class, Text.class);
    }

    /** The (word, document) pairs of the output are those of the input, each word once. */
    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      MultisetDigest expected = new MultisetDigest();
      Lines.forEach(conf, input, line -> {
        String doc = docId(line);
        for (String word : new HashSet<>(Arrays.asList(words(line)))) {
          expected.add(word + '\t' + doc);
        }
      });
      MultisetDigest actual = new MultisetDigest();
      Set<String> words = new HashSet<>();
      Lines.forEach(conf, output, line -> {
        String word = Lines.key(line);
        expect(words.add(word), output, "'" + word + "' is indexed twice");
        String[] docs = Lines.value(line).split(",");
        for (int i = 0; i < docs.length; i++) {
          expect(i == 0 || docs[i - 1].compareTo(docs[i]) < 0, output,
              "the documents of '" + word + "' are not ascending");
          actual.add(word + '\t' + docs[i]);
        }
      });
      expectDigest(expected, actual, output, "(word, document) pairs");
    }
  }

  /** Emits (word, document) once for every distinct word of a document. */
  public static class WordDocMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text word = new Text();
    private final Text doc = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      doc.set(docId(text));
      for (String w : new HashSet<>(Arrays.asList(words(text)))) {
        word.set(w);
        context.write(word, doc);
      }
    }
  }

  /** Joins a word's documents, sorted, without repeats. */
  public static class DocListReducer extends Reducer<Text, Text, Text, Text> {
    private final Text list = new Text();

    @Override
    protected void reduce(Text word, Iterable<Text> docs, Context context)
        throws IOException, InterruptedException {
      List<String> sorted = new ArrayList<>();
      docs.forEach(d -> sorted.add(d.toString()));
      sorted.sort(null);
      StringBuilder joined = new StringBuilder();
      for (int i = 0; i < sorted.size(); i++) {
        if (i == 0 || !sorted.get(i).equals(sorted.get(i - 1))) {
          joined.append(i == 0 ? "" : ",").append(sorted.get(i));
        }
      }
      list.set(joined.toString());
      context.write(word, list);
    }
  }

  /**
   * term-vector: per document, the words that occur at least {@value #CUTOFF} times, as
   * {@code docId<TAB>word:count,...} (PUMA: the frequent terms of each host).
   */
  static final class TermVector extends BasicBenchmark {
    static final int CUTOFF = 3;

    TermVector() {
      super("term-vector", InputSource.WIKIPEDIA, DocWordMapper.class, null,
          TermVectorReducer.class, Text.class);
    }

    @Override
    void verify(Configuration conf, Path input, Path output) throws IOException {
      MultisetDigest expected = new MultisetDigest();
      Lines.forEach(conf, input, line -> {
        String vector = termVector(Arrays.asList(words(line)));
        if (!vector.isEmpty()) {
          expected.add(docId(line) + '\t' + vector);
        }
      });
      expectDigest(expected, Lines.digest(conf, output), output, "term vectors");
    }

    /** "word:count" of the words occurring at least {@link #CUTOFF} times, by word. */
    static String termVector(Iterable<String> words) {
      Map<String, Integer> counts = new TreeMap<>();
      words.forEach(w -> counts.merge(w, 1, Integer::sum));
      StringBuilder vector = new StringBuilder();
      counts.forEach((word, count) -> {
        if (count >= CUTOFF) {
          vector.append(vector.length() == 0 ? "" : ",").append(word).append(':').append(count);
        }
      });
      return vector.toString();
    }
  }

  /** Emits (document, word) for every word of a document. */
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

  /** Writes a document's term vector unless it is empty. */
  public static class TermVectorReducer extends Reducer<Text, Text, Text, Text> {
    private final Text vector = new Text();

    @Override
    protected void reduce(Text doc, Iterable<Text> words, Context context)
        throws IOException, InterruptedException {
      List<String> all = new ArrayList<>();
      words.forEach(w -> all.add(w.toString()));
      vector.set(TermVector.termVector(all));
      if (vector.getLength() > 0) {
        context.write(doc, vector);
      }
    }
  }
}
