package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.policy.DataSet;

class TestSimulatorRuns {
  private static final PolicySimulator.Settings SMALL =
      new PolicySimulator.Settings(7, 1, 60, 1.0, 80 * 1024, 128, 1);
  private static final List<String> POLICIES = List.of("wholeset", "lfu");

  @Test
  void aRunWritesARowPerPolicyAndSeedAndALaterRunResumesIt(@TempDir Path dir)
      throws IOException {
    Path csv = dir.resolve("runs.csv");
    List<SimulatorRuns.Row> first = SimulatorRuns.run(SMALL, ReadOrder.FILE, List.of(1L, 2L),
        POLICIES, csv, quiet());
    assertEquals(4, first.size());
    List<String> lines = Files.readAllLines(csv);
    assertEquals("policy,seed,nodes,block_hit,job_hit,block_bound,job_bound", lines.get(0));
    assertEquals(5, lines.size());
    for (SimulatorRuns.Row row : first) {
      assertTrue(row.jobHit() <= row.jobBound() && row.blockHit() <= row.blockBound(),
          row.toString());
    }

    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    List<SimulatorRuns.Row> again = SimulatorRuns.run(SMALL, ReadOrder.FILE, List.of(1L, 2L, 3L),
        POLICIES, csv, new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(6, again.size());
    String ran = progress.toString(StandardCharsets.UTF_8);
    assertTrue(ran.contains("seed 3") && !ran.contains("seed 1") && !ran.contains("seed 2"), ran);
    for (int i = 0; i < first.size(); i++) {
      assertEquals(first.get(i).policy() + first.get(i).seed(),
          again.get(i).policy() + again.get(i).seed());
      assertEquals(first.get(i).jobHit(), again.get(i).jobHit(), 1e-6,
          "resumed rows are the ones written");
    }

    ByteArrayOutputStream report = new ByteArrayOutputStream();
    SimulatorRuns.report(csv, ReadOrder.FILE, again, POLICIES, new PrintStream(report, true,
        StandardCharsets.UTF_8));
    String text = report.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("| wholeset | 3 |") && text.contains("| lfu | 3 |")
        && text.contains("upper bounds") && text.contains("quarters")
        && text.contains("read in file order"), text);
  }

  @Test
  void otherSettingsAreRefusedAndACutLineIsDropped(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("runs.csv");
    SimulatorRuns.run(SMALL, ReadOrder.FILE, List.of(1L), List.of("lfu"), csv, quiet());
    PolicySimulator.Settings other = new PolicySimulator.Settings(7, 1, 60, 2.0, 80 * 1024, 128,
        1);
    IOException refused = assertThrows(IOException.class,
        () -> SimulatorRuns.run(other, ReadOrder.FILE, List.of(1L), List.of("lfu"), csv, quiet()));
    assertTrue(refused.getMessage().contains("s=2.0") && refused.getMessage().contains("s=1.0"),
        refused.getMessage());
    IOException otherOrder = assertThrows(IOException.class,
        () -> SimulatorRuns.run(SMALL, ReadOrder.SHUFFLED, List.of(1L), List.of("lfu"), csv,
            quiet()));
    assertTrue(otherOrder.getMessage().contains("reads=shuffled"), otherOrder.getMessage());

    Files.writeString(csv, "lfu,2,7,0.3", java.nio.file.StandardOpenOption.APPEND);
    List<SimulatorRuns.Row> rows =
        SimulatorRuns.claim(csv, SimulatorRuns.settingsLine(SMALL, ReadOrder.FILE));
    assertEquals(1, rows.size());
    assertEquals(2, Files.readAllLines(csv).size(), "the cut line is gone");
  }

  /** CSVs written before reads had an order were read in file order: they still resume. */
  @Test
  void fileOrderKeepsTheSettingsLineOfEarlierRuns() {
    assertEquals("nodes=7 tenants=1 jobs=60 s=1.0 cache-mb=81920 block-mb=128 shift=0",
        SimulatorRuns.settingsLine(SMALL, ReadOrder.FILE));
  }

  @Test
  void seedsAreListsAndRanges() {
    assertEquals(List.of(1L, 2L, 3L, 7L), PolicySimulator.seeds("1-3,7"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PolicySimulator.seeds("5-"));
    assertTrue(e.getMessage().contains("--seeds 5-"), e.getMessage());
  }

  /** A shifting trace draws other data sets after each shift; no shift draws as before. */
  @Test
  void popularityShiftsOnlyWhenAsked() {
    PumaWorkload.JobStream plain = new PumaWorkload(7, 1, 1.0, 128, 1).jobs();
    PumaWorkload.JobStream unshifted = new PumaWorkload(7, 1, 1.0, 128, 1, 0).jobs();
    PumaWorkload.JobStream shifting = new PumaWorkload(7, 1, 1.0, 128, 1, 100).jobs();
    List<Integer> before = new ArrayList<>();
    List<Integer> after = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      DataSet expected = plain.next();
      assertEquals(expected, unshifted.next());
      DataSet drawn = shifting.next();
      (i < 100 ? before : after).add(drawn.id());
      if (i < 100) {
        assertEquals(expected, drawn, "the same until the first shift");
      }
    }
    assertNotEquals(before.stream().distinct().sorted().toList(),
        after.stream().distinct().sorted().toList());
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
