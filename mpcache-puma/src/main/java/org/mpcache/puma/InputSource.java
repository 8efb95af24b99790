package org.mpcache.puma;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The six data sources of the PUMA suite as deterministic synthetic generators, so every run of
 * the benchmarks (and every cluster configuration compared) reads the same bytes without the
 * original data sets: the same size and seed always give the same bytes. Each source writes
 * several files, so a job on it runs several map tasks even when blocks are large.
 */
public enum InputSource {
  /**
   * Wikipedia-like text: one document per line, {@code docId<TAB>words}, the words drawn from a
   * Zipf distribution (s = 1) over a vocabulary of {@value #VOCABULARY} words. Document ids are
   * unique within a data set.
   */
  WIKIPEDIA {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      out.append("doc").append(record).append('\t');
      int words = 50 + random.nextInt(150);
      for (int i = 0; i < words; i++) {
        if (i > 0) {
          out.append(' ');
        }
        out.append(Vocabulary.WORDS[Vocabulary.ZIPF_WORDS.draw(random)]);
      }
      out.append('\n');
    }
  },
  /**
   * Netflix-prize-style ratings in PUMA's layout, one movie per line:
   * {@code movieId<TAB>userId_rating,userId_rating,...} with ratings 1..5 around the movie's
   * own taste.
   */
  NETFLIX {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      out.append(record).append('\t');
      int ratings = 20 + random.nextInt(180);
      int taste = 1 + random.nextInt(5);
      for (int i = 0; i < ratings; i++) {
        if (i > 0) {
          out.append(',');
        }
        int rating = Math.max(1, Math.min(5, taste + random.nextInt(3) - 1));
        out.append(random.nextInt(USERS)).append('_').append(rating);
      }
      out.append('\n');
    }
  },
  /**
   * PUMA-I: ascending {@value #TUPLE_SIZE}-item tuples {@code a,b,c,d,e}, the frequent itemsets
   * Apriori's candidate generation joins. A record is a group of 1 to 6 tuples sharing their
   * first {@value #TUPLE_SIZE} - 1 items, so joins happen at every input size.
   */
  PUMA_I {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      int[] items = new int[TUPLE_SIZE + random.nextInt(6)];
      for (int drawn = 0; drawn < items.length; ) {
        int item = random.nextInt(ITEMS);
        if (Arrays.stream(items, 0, drawn).noneMatch(i -> i == item)) {
          items[drawn++] = item;
        }
      }
      Arrays.sort(items);
      for (int last = TUPLE_SIZE - 1; last < items.length; last++) {
        for (int i = 0; i < TUPLE_SIZE - 1; i++) {
          out.append(items[i]).append(',');
        }
        out.append(items[last]).append('\n');
      }
    }
  },
  /** PUMA-II: a graph's edges {@code src<TAB>dst}, source vertices with Zipf out-degrees. */
  PUMA_II {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      out.append(Vocabulary.ZIPF_VERTICES.draw(random)).append('\t')
          .append(1 + random.nextInt(VERTICES)).append('\n');
    }
  },
  /** PUMA-III: term occurrences {@code word<TAB>docId<TAB>count}, a sequence-count's shape. */
  PUMA_III {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      out.append(Vocabulary.WORDS[Vocabulary.ZIPF_WORDS.draw(random)]).append("\tdoc")
          .append(random.nextInt(200_000)).append('\t').append(1 + random.nextInt(50))
          .append('\n');
    }
  },
  /**
   * PUMA-IV: TeraGen's records (the Hadoop 0.20 generator PUMA used), 100 bytes each: a 10-byte
   * key of printable characters, then the 90-byte value: a right-aligned row number of 10
   * bytes, 78 bytes of letter filler and CR LF (tera-sort's input format drops the line end).
   */
  PUMA_IV {
    @Override
    void writeRecord(AsciiOutput out, SplittableRandom random, long record) throws IOException {
      for (int i = 0; i < TeraSort.KEY_BYTES; i++) {
        out.append((char) (' ' + random.nextInt(95)));
      }
      String row = Long.toString(record);
      for (int i = row.length(); i < 10; i++) {
        out.append(' ');
      }
      out.append(row);
      int base = (int) (record * 8 % 26);
      for (int run = 0; run < 8; run++) {
        char letter = (char) ('A' + (base + run) % 26);
        for (int i = run < 7 ? 10 : 8; i > 0; i--) {
          out.append(letter);
        }
      }
      out.append("\r\n");
    }
  };

  static final int VOCABULARY = 50_000;
  static final int VERTICES = 100_000;
  static final int USERS = 480_189;
  static final int ITEMS = 1_000;
  static final int TUPLE_SIZE = 5;
  private static final long BYTES_PER_FILE = 16L << 20;

  /** Appends one record (a line, or a few for PUMA-I) drawn from {@code random}. */
  abstract void writeRecord(AsciiOutput out, SplittableRandom random, long record)
      throws IOException;

  /** The directory name of this source's data sets: "wikipedia", "puma-i", ... */
  public String dirName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * Writes about {@code bytes} of this source into {@code dir} as files {@code part-00000}, ...
   * of up to 16 MB, at least two.
   */
  public void generate(FileSystem fs, Path dir, long bytes, long seed) throws IOException {
    generate(fs, dir, bytes, seed, BYTES_PER_FILE);
  }

  /**
   * Writes about {@code bytes} as files of at most about {@code bytesPerFile} (a file ends with
   * the record that reaches its share), at least two.
   */
  public void generate(FileSystem fs, Path dir, long bytes, long seed, long bytesPerFile)
      throws IOException {
    generate((path, file) -> fs.create(path, false), dir, bytes, seed, bytesPerFile);
  }

  /**
   * As {@link #generate(FileSystem, Path, long, long, long)}, each file opened by
   * {@code files} (which may, for example, place it on a chosen node): the same bytes.
   */
  public void generate(FileCreator files, Path dir, long bytes, long seed, long bytesPerFile)
      throws IOException {
    int count = files(bytes, bytesPerFile);
    SplittableRandom seeds = new SplittableRandom(seed);
    long record = 0;
    for (int file = 0; file < count; file++) {
      SplittableRandom random = seeds.split();
      Path path = new Path(dir, String.format(Locale.ROOT, "part-%05d", file));
      try (AsciiOutput out = new AsciiOutput(files.create(path, file))) {
        while (out.count() < bytes / count) {
          writeRecord(out, random, record++);
        }
      }
    }
  }

  /** How many files {@link #generate} writes for {@code bytes}: at least two. */
  public static int files(long bytes, long bytesPerFile) {
    return (int) Math.max(2, (bytes + bytesPerFile - 1) / bytesPerFile);
  }

  /** Opens a new file of a data set being generated. */
  @FunctionalInterface
  public interface FileCreator {
    /** Creates {@code path}, the data set's file number {@code index} (from 0). */
    OutputStream create(Path path, int index) throws IOException;
  }

  /** The source named {@code name}, as its constant or its {@link #dirName()}, any case. */
  public static InputSource of(String name) {
    for (InputSource source : values()) {
      if (source.name().equalsIgnoreCase(name) || source.dirName().equalsIgnoreCase(name)) {
        return source;
      }
    }
    throw new IllegalArgumentException("no input source '" + name + "'; choose from "
        + Arrays.stream(values()).map(InputSource::dirName).toList());
  }

  /** The word of a Zipf rank: distinct for every rank, short for the frequent ones. */
  static String word(int rank) {
    StringBuilder word = new StringBuilder();
    // Bijective base 26 from "aa": rank 1 is "aa", rank 677 is "aaa".
    for (int n = rank + 26; n > 0; n = (n - 1) / 26) {
      word.append((char) ('a' + (n - 1) % 26));
    }
    return word.reverse().toString();
  }

  /** Lazily built tables: the words of every rank and the Zipf samplers. */
  private static final class Vocabulary {
    static final String[] WORDS = new String[VOCABULARY + 1];
    static final Zipf ZIPF_WORDS = new Zipf(VOCABULARY);
    static final Zipf ZIPF_VERTICES = new Zipf(VERTICES);

    static {
      for (int rank = 1; rank <= VOCABULARY; rank++) {
        WORDS[rank] = word(rank);
      }
    }
  }

  /**
   * Ranks 1..n with probability proportional to 1/rank: a binary search of the CDF, narrowed by
   * a guide table to the ranks whose CDF range meets the draw's 1/65536th of [0, 1).
   */
  private static final class Zipf {
    private static final int GUIDE_BITS = 16;
    private final double[] cdf;
    private final int[] guide = new int[(1 << GUIDE_BITS) + 1];

    Zipf(int n) {
      cdf = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1.0 / (i + 1);
        cdf[i] = sum;
      }
      for (int i = 0; i < n; i++) {
        cdf[i] /= sum;
      }
      cdf[n - 1] = 1;
      for (int k = 0, i = 0; k < guide.length; k++) {
        while (i < n - 1 && cdf[i] < k / (double) (1 << GUIDE_BITS)) {
          i++;
        }
        guide[k] = i;
      }
    }

    int draw(SplittableRandom random) {
      double u = random.nextDouble();
      int k = (int) (u * (1 << GUIDE_BITS));
      int index = Arrays.binarySearch(cdf, guide[k], guide[k + 1] + 1, u);
      return (index < 0 ? -index - 1 : index) + 1;
    }
  }

  /** A buffered ASCII stream that counts its bytes, so files stop at their share of the size. */
  static final class AsciiOutput implements AutoCloseable {
    private final OutputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int buffered;
    private long count;

    AsciiOutput(OutputStream out) {
      this.out = out;
    }

    AsciiOutput append(char c) throws IOException {
      if (buffered == buffer.length) {
        flushBuffer();
      }
      buffer[buffered++] = (byte) c;
      count++;
      return this;
    }

    AsciiOutput append(String text) throws IOException {
      for (int i = 0; i < text.length(); i++) {
        append(text.charAt(i));
      }
      return this;
    }

    AsciiOutput append(long number) throws IOException {
      return append(Long.toString(number));
    }

    long count() {
      return count;
    }

    private void flushBuffer() throws IOException {
      out.write(buffer, 0, buffered);
      buffered = 0;
    }

    @Override
    public void close() throws IOException {
      try (out) {
        flushBuffer();
      }
    }
  }
}
