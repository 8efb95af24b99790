package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.simulator.SwimTrace.DataSetReading;

/**
 * The SWIM reader on a few lines in the published format (swim-sample.tsv): inputPath1 read with
 * 2, 3 and 2 MB, a job without input, inputPath3 read with 1 MB and a byte over; jobs in hours
 * 0, 0, 0, 1, 2 and past the 24th.
 */
class TestSwimTrace {
  private static final long MB = 1 << 20;
  /** 4 nodes, 1 GB of cache each, 1 MB blocks. */
  private static final PolicySimulator.Settings CLUSTER =
      new PolicySimulator.Settings(4, 1, 1, 1.0, 1024, 1, 5);

  @Test
  void eachLineIsAJobWithItsSubmitTimeInputSizeAndPath() throws Exception {
    List<SwimTrace.Job> jobs = SwimTrace.read(sample());
    assertEquals(6, jobs.size());
    assertEquals(new SwimTrace.Job(3, 3599, 3 * MB, "inputPath1"), jobs.get(2));
    assertEquals(List.of(0, 0, 0, 1, 2, 23),
        jobs.stream().map(SwimTrace.Job::sample).toList());
  }

  @Test
  void aPathIsOneDataSetAsLargeAsItsLargestReadWhichEveryJobReadsWhole() throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH,
        PartialRead.NEWEST, 0, 23, CLUSTER);
    assertEquals(5, trace.jobs(), "the job without input is left out");
    assertEquals(List.of("0:3@0", "0:3@0", "1:2@3", "0:3@0", "1:2@3"), dataSets(trace));
    List<TraceJob> jobs = new ArrayList<>();
    trace.forEach(jobs::add);
    assertArrayEquals(jobs.get(0).replicas(), jobs.get(3).replicas(), "placed once per block");
    for (TraceJob job : jobs) {
      for (int i = 0; i < job.dataSet().blocks(); i++) {
        Set<Integer> nodes = new HashSet<>();
        for (int r = 0; r < PumaWorkload.REPLICATION; r++) {
          nodes.add(job.replica(i, r));
        }
        assertEquals(PumaWorkload.REPLICATION, nodes.size(), "distinct replica nodes");
        assertTrue(nodes.contains(job.namedNode(i)));
      }
    }
    assertEquals(CLUSTER.nodes(), trace.settings().nodes());
    assertEquals(CLUSTER.cacheBlocksPerNode(), trace.settings().cacheBlocksPerNode());
  }

  @Test
  void aPathReadWithAnotherSizeIsAnotherDataSet() throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH_AND_SIZE,
        PartialRead.NEWEST, 0, 23, CLUSTER);
    assertEquals(List.of("0:2@0", "1:3@2", "2:1@5", "0:2@0", "3:2@6"), dataSets(trace));
  }

  /** Data sets are formed among the chosen samples' jobs alone: inputPath1 is 2 MB in hour 2. */
  @Test
  void samplesChooseTheJobsAndTheDataSetsAreThoseJobs() throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH,
        PartialRead.NEWEST, 1, 23, CLUSTER);
    assertEquals(List.of("0:2@0", "1:2@2", "0:2@0"), dataSets(trace));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SwimTrace.trace(List.of(), DataSetReading.PATH, PartialRead.NEWEST, 12, 24,
            CLUSTER));
    assertTrue(e.getMessage().contains("samples 12-24"), e.getMessage());
  }

  /** With room for everything, LRU serves whole every job that reads a data set again. */
  @Test
  void theSimulatorRunsATraceOfTheWorkload() throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH,
        PartialRead.NEWEST, 0, 23, CLUSTER);
    PolicySimulator.Result lru = PolicySimulator.run(trace,
        SimulatorPolicies.create("lru"), ReadOrder.FILE);
    assertEquals(3, lru.jobHits());
    assertEquals(3 + 3 + 2 + 3 + 2, lru.blockAccesses());
  }

  /**
   * inputPath1 is 3 blocks, read with 2, 3 and 2; inputPath3 2 blocks, read with 1 and 2: a job
   * reading fewer blocks than its path holds reads those the choice picks.
   */
  @Test
  void aJobReadingLessThanItsPathReadsThePartTheChoiceSays() throws Exception {
    List<SwimTrace.Job> jobs = SwimTrace.read(sample());
    assertEquals(List.of("[0, 1]", "whole", "[0]", "[0, 1]", "whole"),
        parts(SwimTrace.trace(jobs, DataSetReading.PATH_PART, PartialRead.PREFIX, 0, 23,
            CLUSTER)));
    assertEquals(List.of("[1, 2]", "whole", "[1]", "[1, 2]", "whole"),
        parts(SwimTrace.trace(jobs, DataSetReading.PATH_PART, PartialRead.NEWEST, 0, 23,
            CLUSTER)));
    Trace random = SwimTrace.trace(jobs, DataSetReading.PATH_PART, PartialRead.RANDOM, 0, 23,
        CLUSTER);
    assertEquals(List.of(2, 3, 1, 2, 2), reads(random));
    assertEquals(List.of("0:3@0", "0:3@0", "1:2@3", "0:3@0", "1:2@3"), dataSets(random),
        "the data sets of the path reading");
  }

  /**
   * With room for everything, LRU on the prefix reading: job 4 finds the two blocks job 0 read;
   * jobs 2 and 5 each read a block no job read before, which no policy can serve.
   */
  @Test
  void aJobHitsWhenEveryBlockItReadsIsCachedAndTheBoundsCountItsReads() throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH_PART,
        PartialRead.PREFIX, 0, 23, CLUSTER);
    PolicySimulator.Result lru = PolicySimulator.run(trace, SimulatorPolicies.create("lru"),
        ReadOrder.FILE);
    assertEquals(2 + 3 + 1 + 2 + 2, lru.blockAccesses());
    assertEquals(2 + 2 + 1, lru.blockHits());
    assertEquals(1, lru.jobHits());
    assertEquals(1, JobBound.jobHits(trace, 0));
    PolicySimulator.Result blockBound = OfflineBound.run(trace, ReadOrder.FILE);
    assertEquals(lru.blockAccesses(), blockBound.blockAccesses());
    assertEquals(5, blockBound.blockHits());
  }

  @Test
  void aTraceOfPartialReadsIsWrittenAndReadBackWithItsParts(@TempDir Path dir)
      throws Exception {
    Trace trace = SwimTrace.trace(SwimTrace.read(sample()), DataSetReading.PATH_PART,
        PartialRead.RANDOM, 0, 23, CLUSTER);
    Path file = dir.resolve("trace");
    trace.write(file);
    Trace read = Trace.read(file);
    assertEquals(parts(trace), parts(read));
    assertEquals(dataSets(trace), dataSets(read));
    assertTrue(Files.readString(file).contains(" part="), "parts written as such");
    assertFalse(read.drawn(), "the workload's, not the generator's");
    assertEquals(trace.dataBlocks(), read.dataBlocks());
  }

  @Test
  void aLineWithoutAnInputPathIsNamed(@TempDir Path dir) throws IOException {
    Path withoutPaths = dir.resolve("FB-2009_samples_24_times_1hr_0.tsv");
    Files.writeString(withoutPaths, "job0\t1\t1\t2097152\t0\t100\tinputPath1\t\t\n"
        + "job1\t2\t1\t2097152\t0\t100\n");
    IOException e = assertThrows(IOException.class, () -> SwimTrace.read(withoutPaths));
    assertTrue(e.getMessage().contains("FB-2009_samples_24_times_1hr_0.tsv:2: not a SWIM job"
        + " with an input path (6 fields, at least 7 expected (a workload without input "
        + "paths?))"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DataSetReading.of("file"));
    assertEquals(DataSetReading.PATH_AND_SIZE, DataSetReading.of("path-size"));
  }

  /** The blocks each job reads of its data set: "whole", or their indexes. */
  private static List<String> parts(Trace trace) {
    List<String> parts = new ArrayList<>();
    for (TraceJob job : trace) {
      parts.add(job.readsWhole() ? "whole" : Arrays.toString(job.part()));
    }
    return parts;
  }

  private static List<Integer> reads(Trace trace) {
    List<Integer> reads = new ArrayList<>();
    trace.forEach(job -> reads.add(job.reads()));
    return reads;
  }

  /** Each job's data set as id:blocks@first block. */
  private static List<String> dataSets(Trace trace) {
    List<String> sets = new ArrayList<>();
    for (TraceJob job : trace) {
      sets.add(job.dataSet().id() + ":" + job.dataSet().blocks() + "@" + job.firstBlock());
    }
    return sets;
  }

  private static Path sample() throws URISyntaxException {
    return Path.of(TestSwimTrace.class.getResource("/swim-sample.tsv").toURI());
  }
}
