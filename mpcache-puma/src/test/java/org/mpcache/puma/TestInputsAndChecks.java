package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class TestInputsAndChecks {
  private final Configuration conf = new Configuration();

  private Path dir(String name) throws IOException {
    return new Path(Files.createTempDirectory(new File("target").toPath(), name).toUri());
  }

  private byte[] bytes(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    Lines.forEach(conf, dir, lines::add);
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everySourceIsDeterministicAndAboutTheAskedSize() throws IOException {
    FileSystem local = FileSystem.getLocal(conf);
    for (InputSource source : InputSource.values()) {
      Path a = dir(source.dirName());
      Path b = dir(source.dirName());
      Path c = dir(source.dirName());
      source.generate(local, a, 200_000, 7);
      source.generate(local, b, 200_000, 7);
      source.generate(local, c, 200_000, 8);
      assertArrayEquals(bytes(a), bytes(b), source + " with one seed");
      assertFalse(java.util.Arrays.equals(bytes(a), bytes(c)), source + " with two seeds");
      long size = local.getContentSummary(a).getLength();
      assertTrue(size >= 200_000 && size < 220_000, source + " wrote " + size + " bytes");
    }
  }

  @Test
  void teraSortCheckRejectsUnsortedOutputAndAcceptsSortedOne() throws IOException {
    Path input = dir("tera-in");
    InputSource.PUMA_IV.generate(FileSystem.getLocal(conf), input, 50_000, 1);
    List<String> records = new ArrayList<>();
    Lines.forEach(conf, input, records::add);
    PumaBenchmark teraSort = PumaBenchmarks.byName("tera-sort");

    Path unsorted = dir("tera-unsorted");
    Files.write(new File(unsorted.toUri().getPath(), "part-r-00000").toPath(), records);
    assertThrows(OutputCheckFailed.class, () -> teraSort.check(conf, input, unsorted));

    Collections.sort(records);
    Path sorted = dir("tera-sorted");
    int half = records.size() / 2;
    Files.write(new File(sorted.toUri().getPath(), "part-r-00000").toPath(),
        records.subList(0, half));
    Files.write(new File(sorted.toUri().getPath(), "part-r-00001").toPath(),
        records.subList(half, records.size()));
    assertDoesNotThrow(() -> teraSort.check(conf, input, sorted));

    Files.write(new File(sorted.toUri().getPath(), "part-r-00001").toPath(),
        records.subList(half + 1, records.size()));
    assertThrows(OutputCheckFailed.class, () -> teraSort.check(conf, input, sorted),
        "a lost record");
  }

  @Test
  void wordCountCheckRejectsAWrongCount() throws IOException {
    Path input = dir("wc-in");
    InputSource.WIKIPEDIA.generate(FileSystem.getLocal(conf), input, 20_000, 1);
    java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    Lines.forEach(conf, input, line -> {
      for (String w : TextBenchmarks.words(line)) {
        counts.merge(w, 1L, Long::sum);
      }
    });
    List<String> lines = new ArrayList<>();
    counts.forEach((w, c) -> lines.add(w + "\t" + c));
    Path output = dir("wc-out");
    File part = new File(output.toUri().getPath(), "part-r-00000");
    Files.write(part.toPath(), lines);
    PumaBenchmark wordCount = PumaBenchmarks.byName("word-count");
    assertDoesNotThrow(() -> wordCount.check(conf, input, output));

    lines.set(0, lines.get(0).replaceAll("\t(\\d+)$", "\t999999"));
    Files.write(part.toPath(), lines);
    assertThrows(OutputCheckFailed.class, () -> wordCount.check(conf, input, output));
  }
}
