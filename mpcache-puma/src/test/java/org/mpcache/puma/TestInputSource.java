package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The generators: deterministic, of the asked size, in the layout their benchmarks parse. */
class TestInputSource {
  private static final long SIZE = 1 << 20;
  private static final Map<InputSource, Pattern> LINE_LAYOUTS = new EnumMap<>(Map.of(
      InputSource.WIKIPEDIA, Pattern.compile("doc\\d+\t[a-z]+( [a-z]+)*"),
      InputSource.NETFLIX, Pattern.compile("\\d+\t\\d+_[1-5](,\\d+_[1-5])*"),
      InputSource.PUMA_I, Pattern.compile("\\d+(,\\d+){4}"),
      InputSource.PUMA_II, Pattern.compile("\\d+\t\\d+"),
      InputSource.PUMA_III, Pattern.compile("[a-z]+\tdoc\\d+\t\\d+"),
      InputSource.PUMA_IV, Pattern.compile("[ -~]{10}[ \\d]{10}[A-Z]{78}")));

  @ParameterizedTest
  @EnumSource(InputSource.class)
  void sameSeedSameBytesOtherSeedOtherBytes(InputSource source) throws IOException {
    Path root = LocalData.freshDir("generators/" + source.dirName());
    List<byte[]> first = generate(source, new Path(root, "first"), 7);
    List<byte[]> again = generate(source, new Path(root, "again"), 7);
    List<byte[]> otherSeed = generate(source, new Path(root, "other"), 8);
    assertEquals(first.size(), again.size());
    for (int i = 0; i < first.size(); i++) {
      assertArrayEquals(first.get(i), again.get(i), "file " + i);
    }
    assertFalse(Arrays.equals(first.get(0), otherSeed.get(0)), "seeds 7 and 8 give the same");
  }

  @ParameterizedTest
  @EnumSource(InputSource.class)
  void writesAboutTheAskedSizeInSeveralFilesOfItsLayout(InputSource source) throws IOException {
    Path dir = new Path(LocalData.freshDir("generators/" + source.dirName()), "data");
    List<byte[]> files = generate(source, dir, 1);
    long bytes = files.stream().mapToLong(f -> f.length).sum();
    assertTrue(files.size() >= 2, files.size() + " files");
    assertTrue(bytes >= SIZE && bytes < SIZE * 1.01, bytes + " bytes for " + SIZE);
    Pattern layout = LINE_LAYOUTS.get(source);
    long[] lines = {0};
    Lines.forEach(new Configuration(), dir, line -> {
      assertTrue(layout.matcher(line).matches(), "not " + source + ": " + line);
      lines[0]++;
    });
    assertTrue(lines[0] > 10, lines[0] + " lines");
  }

  @Test
  void teraRecordsAreHundredBytesWithCrLf() throws IOException {
    Path dir = LocalData.freshDir("generators/tera-records");
    for (byte[] file : generate(InputSource.PUMA_IV, dir, 3)) {
      assertEquals(0, file.length % 100);
      for (int end = 99; end < file.length; end += 100) {
        assertEquals('\r', file[end - 1]);
        assertEquals('\n', file[end]);
      }
    }
  }

  @Test
  void tuplesAreAscendingAndShareTheirPrefixesInGroups() throws IOException {
    Path dir = LocalData.freshDir("generators/tuples");
    generate(InputSource.PUMA_I, dir, 3);
    Set<String> prefixes = new HashSet<>();
    long[] tuples = {0};
    Lines.forEach(new Configuration(), dir, line -> {
      int[] items = Arrays.stream(line.split(",")).mapToInt(Integer::parseInt).toArray();
      assertTrue(IntStream.range(1, items.length).allMatch(i -> items[i - 1] < items[i]), line);
      prefixes.add(line.substring(0, line.lastIndexOf(',')));
      tuples[0]++;
    });
    assertTrue(prefixes.size() < tuples[0] * 2 / 3, prefixes.size() + " prefixes of "
        + tuples[0] + " tuples: too few joins");
  }

  @Test
  void wordsAreDistinctForEveryRank() {
    Set<String> words = new HashSet<>();
    for (int rank = 1; rank <= InputSource.VOCABULARY; rank++) {
      assertTrue(words.add(InputSource.word(rank)), "rank " + rank);
    }
  }

  /** The benchmark harness writes a file per HDFS block: none may spill far into a second. */
  @ParameterizedTest
  @EnumSource(InputSource.class)
  void filesStayWithinTheirShareOfTheAskedSizePerFile(InputSource source) throws IOException {
    Path dir = LocalData.freshDir("generators/per-file-" + source.dirName());
    long perFile = 200 << 10;
    source.generate(LocalData.fs(), dir, SIZE, 1, perFile);
    List<Path> files = Lines.files(new Configuration(), dir);
    assertEquals((SIZE + perFile - 1) / perFile, files.size());
    for (Path file : files) {
      long length = LocalData.fs().getFileStatus(file).getLen();
      assertTrue(length >= SIZE / files.size() && length < perFile + 4096, file + ": " + length);
    }
  }

  @Test
  void sourcesAreFoundByConstantOrDirectoryName() {
    assertSame(InputSource.PUMA_III, InputSource.of("puma-iii"));
    assertSame(InputSource.PUMA_III, InputSource.of("PUMA_III"));
    assertSame(InputSource.WIKIPEDIA, InputSource.of("Wikipedia"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InputSource.of("imdb"));
    assertTrue(e.getMessage().contains("puma-iv"), e.getMessage());
  }

  private static List<byte[]> generate(InputSource source, Path dir, long seed)
      throws IOException {
    source.generate(LocalData.fs(), dir, SIZE, seed);
    List<byte[]> contents = new ArrayList<>();
    for (Path file : Lines.files(new Configuration(), dir)) {
      contents.add(LocalData.bytes(file));
    }
    return contents;
  }
}
