package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.bench.device.IoCause;

class TestResultsFolder {
  static JobResult job(ClusterSetup setup, long seed, int index) {
    return new JobResult(setup, seed, index, "grep", "wikipedia/k1", 8 << 20, 30.5, 20, 10.5,
        setup.mpCache() ? 0.75 : Double.NaN, 0.5, 0.9, 0.95, 0.4, 1.0, Double.NaN, 0,
        Double.NaN, index == 0, true, List.of(12.5, 0.0, 3.25, 0.0, 1.0, 2.0, Double.NaN),
        setup.mpCache() ? List.of(32L << 20, 16L << 20, 32L << 20) : List.of(), "");
  }

  @Test
  void streamsSavedInOneSittingAreMergedInTheNext(@TempDir Path dir) throws Exception {
    ResultsFolder first = new ResultsFolder(dir.toFile());
    first.claim(Map.of("nodes", "3", "jobs", "30"));
    first.save(1, ClusterSetup.STOCK, List.of(job(ClusterSetup.STOCK, 1, 0),
        job(ClusterSetup.STOCK, 1, 1)));
    ResultsFolder later = new ResultsFolder(dir.toFile());
    later.claim(Map.of("jobs", "30", "nodes", "3"));
    assertTrue(later.done(1, ClusterSetup.STOCK));
    assertFalse(later.done(1, ClusterSetup.MPCACHE));
    assertFalse(later.done(2, ClusterSetup.STOCK));
    later.save(2, ClusterSetup.MPCACHE, List.of(job(ClusterSetup.MPCACHE, 2, 0)));
    assertEquals(List.of(job(ClusterSetup.STOCK, 1, 0), job(ClusterSetup.STOCK, 1, 1),
        job(ClusterSetup.MPCACHE, 2, 0)).toString(), later.all().toString());
  }

  @Test
  void aRunWithOtherSettingsIsRefusedNamingThem(@TempDir Path dir) throws Exception {
    new ResultsFolder(dir.toFile()).claim(Map.of("nodes", "3", "hdd", "0.5MB/s,40ms,256KB"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ResultsFolder(dir.toFile()).claim(Map.of("nodes", "3", "hdd",
            "0.5MB/s,2268ms,1088KB")));
    assertTrue(e.getMessage().contains("hdd 0.5MB/s,40ms,256KB there, 0.5MB/s,2268ms,1088KB here"),
        e.getMessage());
    assertFalse(e.getMessage().contains("nodes"), e.getMessage());
  }

  @Test
  void aResultLineReadsBackAsTheSameJob() {
    JobResult job = job(ClusterSetup.MPCACHE_COLD, 3, 7);
    assertEquals(job.toString(), JobResult.parse(job.csv()).toString());
    JobResult merged = job.inSitting("stream-2026-11-27");
    assertEquals(merged.toString(), JobResult.parse(merged.csv()).toString());
    JobResult stock = job(ClusterSetup.STOCK, 3, 7);
    assertEquals(List.of(), JobResult.parse(stock.csv()).leastInputRoomBytes());
    assertThrows(IllegalArgumentException.class, () -> JobResult.parse("stock,1,2"));
  }

  @Test
  void aResultLineOfARunBeforeTheSlavesRoomWasSampledReadsAsNotSamplingIt() {
    String line = job(ClusterSetup.MPCACHE, 3, 7).inSitting("stream-2026-11-27").csv();
    int sitting = line.lastIndexOf(',');
    int room = line.lastIndexOf(',', sitting - 1);
    JobResult merged = JobResult.parse(line.substring(0, room) + line.substring(sitting));
    assertEquals(List.of(), merged.leastInputRoomBytes());
    assertEquals("stream-2026-11-27", merged.sitting());
    assertEquals(12.5, merged.hddSeconds(IoCause.values()[0]));
    JobResult own = JobResult.parse(line.substring(0, room));
    assertEquals(List.of(), own.leastInputRoomBytes());
    assertEquals("", own.sitting(), "a line of a run before sittings: the folder's own");
  }

  @Test
  void aResultLineOfAnEarlierRunReadsAsNotMeasuringHddTimeByCause() {
    JobResult job = JobResult.parse("mpcache,1,0,histogram-movies,netflix/k4,33554432,24.8710,"
        + "19.0590,5.8120,0.0000,0.3649,0.4028,0.6625,0.5161,0.7500,,502,1.0000,false,true");
    assertEquals(24.871, job.seconds());
    assertTrue(job.outputChecked());
    assertEquals(JobResult.NOT_MEASURED, job.hddSecondsByCause());
    assertTrue(Double.isNaN(job.hddSeconds(IoCause.HDFS_READ)));
  }
}
