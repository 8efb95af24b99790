package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The word-count and tera-sort checks on hand-made outputs: right ones pass, wrong ones fail. */
class TestOutputChecks {
  private final Configuration conf = LocalData.localConf();

  @Test
  void wordCountAcceptsTheRightCountsOnly() throws IOException {
    Path root = LocalData.freshDir("checks/word-count");
    Path input = new Path(root, "input");
    LocalData.write(new Path(input, "part-00000"), "doc1\tthe cat saw the dog\n");
    LocalData.write(new Path(input, "part-00001"), "doc2\tthe dog\n");
    PumaBenchmark wordCount = PumaBenchmarks.byName("word-count");

    wordCount.check(conf, input, LocalData.output(root, "right", "cat\t1\nsaw\t1\n",
        "dog\t2\nthe\t3\n"));

    assertRejected(wordCount, input, LocalData.output(root, "count-off", "cat\t1\nsaw\t1\n",
        "dog\t2\nthe\t2\n"), "'the' occurs 3 times, the output says 2");
    assertRejected(wordCount, input, LocalData.output(root, "word-missing", "cat\t1\n",
        "dog\t2\nthe\t3\n"), "'saw' occurs 1 times, the output says null");
    assertRejected(wordCount, input, LocalData.output(root, "word-extra",
        "cat\t1\nsaw\t1\nbird\t1\n", "dog\t2\nthe\t3\n"), "5 keys where the input has 4");
    assertRejected(wordCount, input, LocalData.output(root, "word-twice",
        "cat\t1\nsaw\t1\nthe\t1\n", "dog\t2\nthe\t2\n"), "key written twice: the");
    assertRejected(wordCount, input, LocalData.output(root, "no-tab", "cat 1\nsaw\t1\n",
        "dog\t2\nthe\t3\n"), "not 'key<TAB>count': cat 1");
    assertRejected(wordCount, input, LocalData.output(root, "no-number", "cat\tone\nsaw\t1\n",
        "dog\t2\nthe\t3\n"), "cannot read it: java.lang.NumberFormatException");
  }

  @Test
  void teraSortAcceptsSortedPartsInKeyOrderOnly() throws IOException {
    Path root = LocalData.freshDir("checks/tera-sort");
    Path input = new Path(root, "input");
    InputSource.PUMA_IV.generate(LocalData.fs(), input, 50_000, 3);
    List<String> records = new ArrayList<>();
    Lines.forEach(conf, input, records::add);
    records.sort(Comparator.comparing(record -> record.substring(0, TeraSort.KEY_BYTES)));
    List<String> low = new ArrayList<>(records.subList(0, records.size() / 2));
    List<String> high = new ArrayList<>(records.subList(records.size() / 2, records.size()));
    PumaBenchmark teraSort = PumaBenchmarks.byName("tera-sort");

    teraSort.check(conf, input, teraOutput(root, "right", low, high));

    assertRejected(teraSort, input, teraOutput(root, "parts-swapped", high, low), "follows");
    List<String> unsorted = new ArrayList<>(low);
    unsorted.add(0, unsorted.remove(1));
    assertRejected(teraSort, input, teraOutput(root, "unsorted", unsorted, high), "follows");
    List<String> lost = new ArrayList<>(low.subList(0, low.size() - 1));
    assertRejected(teraSort, input, teraOutput(root, "record-lost", lost, high), "records");
    List<String> duplicated = new ArrayList<>(low);
    duplicated.set(1, duplicated.get(0));
    assertRejected(teraSort, input, teraOutput(root, "record-duplicated", duplicated, high),
        "records: expected 500 elements");
    List<String> changed = new ArrayList<>(low);
    changed.set(0, changed.get(0).substring(0, 90) + "ZZZZZZZZ");
    assertRejected(teraSort, input, teraOutput(root, "value-changed", changed, high),
        "records: expected 500 elements");
  }

  private static Path teraOutput(Path root, String name, List<String> low, List<String> high)
      throws IOException {
    return LocalData.output(root, name, String.join("\r\n", low) + "\r\n",
        String.join("\r\n", high) + "\r\n");
  }

  private void assertRejected(PumaBenchmark benchmark, Path input, Path output, String problem) {
    OutputCheckFailed failed = assertThrows(OutputCheckFailed.class,
        () -> benchmark.check(conf, input, output), output.getName());
    assertTrue(failed.getMessage().contains(problem), output.getName() + ": '"
        + failed.getMessage() + "' does not say '" + problem + "'");
  }
}
