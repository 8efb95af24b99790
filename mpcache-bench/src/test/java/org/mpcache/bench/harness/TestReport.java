package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.bench.device.DeviceProfile;

class TestReport {
  private static final HarnessOptions OPTIONS = new HarnessOptions(3, 8 << 20, 24, 2, 1.0, 4,
      8 << 20, 1, 2, List.of(ClusterSetup.STOCK, ClusterSetup.MPCACHE, ClusterSetup.ALL_SSD),
      DeviceProfile.parse("0.5MB/s,40ms,256KB"), DeviceProfile.parse("4MB/s,0.5ms,256KB"), 0.5,
      0.15, new File("work"), null, 2, true, List.of(), true);

  /** Job 0 is a grep (no shuffle), job 1 a tera-sort whose shuffle is its input. */
  private static JobResult job(ClusterSetup setup, int repeat, int index, double seconds,
      double hit) {
    return new JobResult(setup, repeat, index, index == 0 ? "grep" : "tera-sort",
        "in/k" + index, 8 << 20, seconds, seconds / 2, seconds / 2, hit, 0.5, 0.9, 0.4, 1.0,
        setup.mpCache() ? 0.75 : Double.NaN, index == 0 ? 0 : 8 << 20, setup.localized() ? 0.5 : Double.NaN, true);
  }

  /** Stock takes 60 s per job; mpCache 30 s in repeat 1 and 20 s in repeat 2; ALL_SSD 20 s. */
  private static List<JobResult> results() {
    List<JobResult> results = new ArrayList<>();
    for (int repeat = 1; repeat <= 2; repeat++) {
      for (int index = 0; index < 2; index++) {
        results.add(job(ClusterSetup.STOCK, repeat, index, 60, Double.NaN));
        results.add(job(ClusterSetup.MPCACHE, repeat, index, repeat == 1 ? 30 : 20, 0.75));
        results.add(job(ClusterSetup.ALL_SSD, repeat, index, 20, Double.NaN));
      }
    }
    return results;
  }

  @Test
  void speedupsAreGeometricMeansWithTheirSpreadOverRepeats() {
    String summary = new Report(OPTIONS, 100 << 20, results()).summaryMarkdown();
    // per repeat: 60/30 = 2 and 60/20 = 3; geometric mean sqrt(6) = 2.45
    assertTrue(summary.contains("| mpcache | 2.45× (2.00–3.00) |"), summary);
    assertTrue(summary.contains("| all-ssd | 3.00× (3.00–3.00) |"), summary);
    assertTrue(summary.contains("- mpCache over stock: 2.45× (target ≥ 2.5×)"), summary);
    assertTrue(summary.contains("- mpCache against ALL_SSD: 82 % of its speedup"), summary);
    assertTrue(summary.contains("| 75 % |"), "byte hit ratio of mpCache: " + summary);
  }

  @Test
  void jobsThatShuffleGetTheirPhasesAndReducePhaseSpeedups() {
    String summary = new Report(OPTIONS, 100 << 20, results()).summaryMarkdown();
    // only the tera-sort: mean over repeats of 30/2 and 20/2 on mpCache
    assertTrue(summary.contains("| 1 | tera-sort | in/k1 | 8 | 30.0 / 30.0 | 12.5 / 12.5 "
        + "| 10.0 / 10.0 |"), summary);
    assertFalse(summary.contains("| 0 | grep |"), summary);
    assertTrue(summary.contains("| reduce-phase speedup over stock | | | | 1.00× | 2.45× | 3.00× |"),
        summary);
    assertTrue(summary.contains("| localized bytes on SSD | | | | — | 50 % | — |"), summary);
  }

  @Test
  void everyReportSaysTheDevicesWereEmulatedAndGivesTheSizes() throws Exception {
    String summary = new Report(OPTIONS, 100 << 20, results()).summaryMarkdown();
    assertTrue(summary.contains("**Devices were emulated**"), summary);
    assertTrue(summary.contains("working set 100 MB"), summary);
    assertTrue(summary.contains("2 timed jobs after 24"), summary);
  }

  @Test
  void writesTheRawTimingsTheSummaryAndTheCharts(@TempDir Path dir) throws Exception {
    new Report(OPTIONS, 100 << 20, results()).write(dir.toFile());
    List<String> csv = Files.readAllLines(dir.resolve("jobs.csv"));
    assertEquals(JobResult.CSV_HEADER, csv.get(0));
    assertEquals(1 + results().size(), csv.size());
    assertTrue(Files.readString(dir.resolve("report.html")).contains("<svg"));
    assertTrue(Files.readString(dir.resolve("summary.md")).startsWith("# PUMA mix"));
  }
}
