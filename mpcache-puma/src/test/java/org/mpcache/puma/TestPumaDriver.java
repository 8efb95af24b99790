package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/** The driver's commands and exit codes: 0 success, 1 job or check failed, 2 bad usage. */
class TestPumaDriver {
  @Test
  void badCommandLinesExitWithTwo() throws Exception {
    assertEquals(2, run());
    assertEquals(2, run("list", "more"));
    assertEquals(2, run("wordcount", "in", "out"));
    assertEquals(2, run("word-count", "in"));
    assertEquals(2, run("check", "word-count", "in"));
    assertEquals(2, run("generate", "imdb", "dir", "1"));
    assertEquals(2, run("generate", "wikipedia", "dir", "lots"));
    assertEquals(2, run("generate", "wikipedia", "dir", "-1"));
    assertEquals(2, run("generate", "wikipedia", "dir", "1", "seed"));
  }

  @Test
  void listAndHelpExitWithZero() throws Exception {
    assertEquals(0, run("list"));
    assertEquals(0, run("--help"));
  }

  @Test
  void generatesRunsAndChecks() throws Exception {
    Path root = LocalData.freshDir("driver");
    String input = new Path(root, "netflix").toString();
    String output = new Path(root, "histogram").toString();
    assertEquals(0, run("generate", "NETFLIX", input, "0.2", "3"));
    assertEquals(0, run("histogram-ratings", input, output));
    assertEquals(0, run("check", "histogram-ratings", input, output));
    assertEquals(1, run("check", "histogram-movies", input, output), "another job's output");
    assertEquals(1, run("histogram-ratings", input, output), "the output exists");
    assertEquals(1, run("check", "histogram-ratings", input, new Path(root, "none").toString()));
  }

  private static int run(String... args) throws Exception {
    return ToolRunner.run(LocalData.localConf(), new PumaDriver(), args);
  }

}
