package org.mpcache.puma;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The six data sources of the PUMA suite (seeds/000 Table 1) as deterministic synthetic
 * generators: the same size and seed always give the same bytes. Each writes several files, so a
 * job on it runs several map tasks even when blocks are large.
 */
public enum InputSource {
  /** Wikipedia-like text: one document per line, {@code docId<TAB>words}, Zipf word ranks. */
  WIKIPEDIA {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      out.write("doc" + record);
      out.write('\t');
      int words = 50 + random.nextInt(150);
      for (int i = 0; i < words; i++) {
        if (i > 0) {
          out.write(' ');
        }
        out.write(word(ZIPF_WORDS.draw(random)));
      }
      out.write('\n');
    }
  },
  /** Netflix-style ratings, PUMA's layout: {@code movieId<TAB>user_rating,user_rating,...}. */
  NETFLIX {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      out.write(Long.toString(record));
      out.write('\t');
      int ratings = 20 + random.nextInt(180);
      int taste = 1 + random.nextInt(5);
      for (int i = 0; i < ratings; i++) {
        if (i > 0) {
          out.write(',');
        }
        int rating = Math.max(1, Math.min(5, taste + random.nextInt(3) - 1));
        out.write(random.nextInt(500_000) + "_" + rating);
      }
      out.write('\n');
    }
  },
  /** PUMA-I: sorted 5-item tuples {@code a,b,c,d,e}, the input of Apriori's candidate join. */
  PUMA_I {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      int[] items = random.ints(0, TUPLE_ITEMS).distinct().limit(TUPLE_SIZE).sorted().toArray();
      StringBuilder line = new StringBuilder();
      for (int item : items) {
        line.append(line.length() == 0 ? "" : ",").append(item);
      }
      out.write(line.append('\n').toString());
    }
  },
  /** PUMA-II: a graph's edges {@code src<TAB>dst}, sources with Zipf degrees. */
  PUMA_II {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      out.write(ZIPF_VERTICES.draw(random) + "\t" + (1 + random.nextInt(VERTICES)) + "\n");
    }
  },
  /** PUMA-III: term occurrences {@code word<TAB>docId<TAB>count}. */
  PUMA_III {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      out.write(word(ZIPF_WORDS.draw(random)) + "\tdoc" + random.nextInt(200_000) + "\t"
          + (1 + random.nextInt(50)) + "\n");
    }
  },
  /**
   * PUMA-IV: TeraGen-shaped 100-byte records, a 10-byte key of printable characters, a tab and
   * 88 bytes of payload holding the record number, one per line.
   */
  PUMA_IV {
    @Override
    void writeRecord(Writer out, SplittableRandom random, long record) throws IOException {
      char[] row = new char[TERA_RECORD];
      for (int i = 0; i < TERA_KEY; i++) {
        row[i] = (char) ('!' + random.nextInt(94));
      }
      row[TERA_KEY] = '\t';
      String number = String.format(Locale.ROOT, "%032x", record);
      for (int i = TERA_KEY + 1; i < TERA_RECORD - 1; i++) {
        int j = i - TERA_KEY - 1;
        row[i] = j < number.length() ? number.charAt(j) : (char) ('A' + (record + j) % 26);
      }
      row[TERA_RECORD - 1] = '\n';
      out.write(row);
    }
  };

  static final int VOCABULARY = 20_000;
  static final int VERTICES = 100_000;
  static final int TUPLE_ITEMS = 30;
  static final int TUPLE_SIZE = 5;
  static final int TERA_KEY = 10;
  static final int TERA_RECORD = 100;
  private static final long BYTES_PER_FILE = 16L << 20;
  private static final Zipf ZIPF_WORDS = new Zipf(VOCABULARY, 1.0);
  private static final Zipf ZIPF_VERTICES = new Zipf(VERTICES, 1.0);

  abstract void writeRecord(Writer out, SplittableRandom random, long record) throws IOException;

  /** The directory name of this source's data sets: "wikipedia", "puma-i", ... */
  public String dirName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Writes about {@code bytes} of this source into {@code dir}, in files of up to 16 MB. */
  public void generate(FileSystem fs, Path dir, long bytes, long seed) throws IOException {
    int files = (int) Math.max(2, (bytes + BYTES_PER_FILE - 1) / BYTES_PER_FILE);
    long record = 0;
    for (int file = 0; file < files; file++) {
      SplittableRandom random = new SplittableRandom(seed * 1_000_003L + file);
      CountingWriter out = new CountingWriter(new BufferedWriter(new OutputStreamWriter(
          fs.create(new Path(dir, String.format(Locale.ROOT, "part-%05d", file))),
          StandardCharsets.US_ASCII), 1 << 16));
      try (out) {
        while (out.count < bytes / files) {
          writeRecord(out, random, record++);
        }
      }
    }
  }

  public static InputSource of(String name) {
    for (InputSource source : values()) {
      if (source.name().equalsIgnoreCase(name) || source.dirName().equalsIgnoreCase(name)) {
        return source;
      }
    }
    throw new IllegalArgumentException("no input source '" + name + "'; choose from "
        + java.util.Arrays.stream(values()).map(InputSource::dirName).toList());
  }

  /** The word of a Zipf rank: short words for frequent ranks, like a real vocabulary. */
  static String word(int rank) {
    return Integer.toString(rank + 10, 36).replace('0', 'x').replace('1', 'y').replace('2', 'z')
        .replace('3', 'q').replace('4', 'u').replace('5', 'v').replace('6', 'w').replace('7', 'k')
        .replace('8', 'j').replace('9', 'h');
  }

  /** Ranks 1..n with probability proportional to 1/rank^s, drawn by binary search. */
  private static final class Zipf {
    private final double[] cdf;

    Zipf(int n, double s) {
      cdf = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, s);
        cdf[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cdf[i] /= sum;
      }
    }

    int draw(SplittableRandom random) {
      int index = java.util.Arrays.binarySearch(cdf, random.nextDouble());
      return (index < 0 ? -index - 1 : index) + 1;
    }
  }

  /** Counts what it writes, so files stop at their share of the size. */
  private static final class CountingWriter extends java.io.FilterWriter {
    private long count;

    CountingWriter(Writer out) {
      super(out);
    }

    @Override
    public void write(int c) throws IOException {
      out.write(c);
      count++;
    }

    @Override
    public void write(char[] chars, int off, int len) throws IOException {
      out.write(chars, off, len);
      count += len;
    }

    @Override
    public void write(String text, int off, int len) throws IOException {
      out.write(text, off, len);
      count += len;
    }
  }
}
