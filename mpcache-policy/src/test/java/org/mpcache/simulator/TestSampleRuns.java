package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.simulator.SwimTrace.DataSetReading;

/**
 * Each sample of swim-sample.tsv alone: hour 0 reads inputPath1 twice (2 and 3 MB: one data set
 * of 3 blocks read whole twice), hours 1 and 2 read once each.
 */
class TestSampleRuns {
  private static final PolicySimulator.Settings CLUSTER =
      new PolicySimulator.Settings(4, 1, 1, 1.0, 1024, 1, 5);

  @Test
  void theWorkingSetIsTheBlocksMoreThanOneJobReads() throws Exception {
    List<SwimTrace.Job> jobs = SwimTrace.read(sample());
    assertEquals(3 + 2, SampleRuns.rereadBlocks(SwimTrace.trace(jobs, DataSetReading.PATH,
        PartialRead.NEWEST, 0, 23, CLUSTER)));
    assertEquals(0, SampleRuns.rereadBlocks(SwimTrace.trace(jobs, DataSetReading.PATH_AND_SIZE,
        PartialRead.NEWEST, 0, 0, CLUSTER)), "2 MB and 3 MB are two data sets");
  }

  /**
   * With room for four times the working set (3 blocks a node: all of it wherever it is read),
   * LRU serves hour 0's second job whole: job and block hits 50 %, 0 and 0 over the three hours;
   * each sample starts empty, so hour 2's read of inputPath1 misses.
   */
  @Test
  void eachSampleRunsAloneAndTheMeansAreOverSamples() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SampleRuns.run(SwimTrace.read(sample()), DataSetReading.PATH, PartialRead.NEWEST, 0, 2,
        CLUSTER, List.of(4.0, 0.5), List.of("lru", "wholeset"), ReadOrder.FILE,
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("Samples [0, 1, 2], each alone"), out);
    assertTrue(out.contains("#### Cache: 4.0 of each sample's re-read working set"), out);
    assertTrue(out.contains("#### Cache: 1/2 of each sample's re-read working set"), out);
    assertTrue(out.contains("| lru | 16.7 (-55.0 to 88.4) | 16.7 (-55.0 to 88.4) |"), out);
    assertTrue(out.contains("| wholeset | "), out);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SampleRuns.run(List.of(), DataSetReading.PATH, PartialRead.NEWEST, 3, 5, CLUSTER,
            List.of(1.0), List.of("lru"), ReadOrder.FILE, System.out));
    assertTrue(e.getMessage().contains("samples 3-5 hold no job that reads input"));
  }

  @Test
  void sharesAreFractionsOrNumbersAboveZero() {
    assertEquals(List.of(1 / 16.0, 0.25, 1.0), PolicySimulator.shares("1/16, 0.25,1"));
    assertThrows(IllegalArgumentException.class, () -> PolicySimulator.shares("0"));
    assertThrows(IllegalArgumentException.class, () -> PolicySimulator.shares("1/0"));
    assertThrows(IllegalArgumentException.class, () -> PolicySimulator.shares("a/2"));
    assertEquals("1/16", SampleRuns.shareName(1 / 16.0));
    assertEquals("0.3", SampleRuns.shareName(0.3));
  }

  private static Path sample() throws Exception {
    return Path.of(TestSampleRuns.class.getResource("/swim-sample.tsv").toURI());
  }
}
