package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every benchmark on MapReduce's local runner: its check accepts what the job wrote and rejects
 * the output with a line lost or a digit changed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestChecksOnLocalRuns {
  private final Configuration conf = LocalData.localConf();
  private Path root;

  @BeforeAll
  void generateInputs() throws IOException {
    root = LocalData.freshDir("local-runs");
    for (InputSource source : InputSource.values()) {
      source.generate(LocalData.fs(), input(source), 256 << 10, 5);
    }
  }

  Stream<String> benchmarks() {
    return PumaBenchmarks.all().stream().map(PumaBenchmark::name);
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  void checkAcceptsTheJobOutputAndRejectsAlteredOnes(String name) throws Exception {
    PumaBenchmark benchmark = PumaBenchmarks.byName(name);
    Path input = input(benchmark.source());
    Path output = new Path(root, "output-" + name);
    Job job = benchmark.createJob(new Configuration(conf), input, output);
    assertTrue(job.waitForCompletion(false), name + " failed");
    benchmark.check(conf, input, output);

    Path part = Lines.files(conf, output).get(0);
    String text = LocalData.read(part);
    assertTrue(text.indexOf('\n') < text.length() - 1, part + " has fewer than two lines");
    String lastLineLost = text.substring(0, text.lastIndexOf('\n', text.length() - 2) + 1);
    assertRejectedWith(benchmark, input, part, lastLineLost);
    int lineEnd = text.indexOf('\n');
    int digit = lineEnd - 1;
    while (!Character.isDigit(text.charAt(digit))) {
      digit--;
    }
    String digitChanged = text.substring(0, digit) + (char) ('0' + (text.charAt(digit) - '0' + 1)
        % 10) + text.substring(digit + 1);
    assertRejectedWith(benchmark, input, part, digitChanged);
  }

  /** Rewrites {@code part} as {@code altered}, expects the check to fail, and restores it. */
  private void assertRejectedWith(PumaBenchmark benchmark, Path input, Path part, String altered)
      throws IOException {
    String original = LocalData.read(part);
    LocalData.write(part, altered);
    try {
      assertThrows(OutputCheckFailed.class, () -> benchmark.check(conf, input, part.getParent()),
          "altered first line: " + altered.substring(0, Math.min(200, altered.indexOf('\n'))));
    } finally {
      LocalData.write(part, original);
    }
  }

  private Path input(InputSource source) {
    return new Path(root, source.dirName());
  }
}
