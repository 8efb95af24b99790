package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.conf.MpCacheConfigKeys;

/** Where a task's files go without a slave on the node: the HDD dirs only. */
class TestSsdOutputFiles {
  private static final String ATTEMPT = "attempt_1_0001_m_000000_0";

  @TempDir
  Path root;

  private SsdOutputFiles files(String bandwidth) throws IOException {
    JobConf conf = new JobConf(false);
    conf.setStrings(MRConfig.LOCAL_DIR,
        Files.createDirectories(root.resolve("fast/usercache/u/appcache/app")).toString(),
        Files.createDirectories(root.resolve("slow/usercache/u/appcache/app")).toString());
    conf.set(MRJobConfig.TASK_ATTEMPT_ID, ATTEMPT);
    if (bandwidth != null) {
      conf.set(MpCacheConfigKeys.MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY, bandwidth);
    }
    SsdOutputFiles files = new SsdOutputFiles();
    files.setConf(conf);
    return files;
  }

  @Test
  void spillsGoToTheHddDirsInProportionToTheirBandwidth() throws IOException {
    SsdOutputFiles files = files(root.resolve("fast") + "=300," + root.resolve("slow") + "=100");
    int fast = 0;
    for (int spill = 0; spill < 400; spill++) {
      org.apache.hadoop.fs.Path path = files.getSpillFileForWrite(spill, 1024);
      assertTrue(path.getName().equals(ATTEMPT + "_spill_" + spill + ".out"), path.toString());
      fast += path.toString().startsWith(root.resolve("fast").toString()) ? 1 : 0;
    }
    // Expected 300 of 400; the bounds are seven standard deviations away.
    assertTrue(fast > 240 && fast < 360, fast + " of 400 spills on the 3x faster dir");
  }

  /**
   * The reduce side's on-disk merger asks for its output by an input's absolute path, as
   * LocalDirAllocator takes it: inside the chosen dir, so the weights hold for merges too.
   */
  @Test
  void mergeOutputsNamedByAnAbsolutePathGoToTheChosenDir() throws IOException {
    SsdOutputFiles files = files(root.resolve("fast") + "=1000000," + root.resolve("slow")
        + "=0.000001");
    String input = root.resolve("slow/usercache/u/appcache/app/output/map_1.out").toString();
    org.apache.hadoop.fs.Path merged = files.mergeAllocator().getLocalPathForWrite(input, 1024,
        new JobConf(false), true);
    assertTrue(merged.toString().startsWith(root.resolve("fast").toString()), merged.toString());
    assertTrue(merged.toString().endsWith(input), merged.toString());
  }

  @Test
  void aBadBandwidthSettingLeavesHadoopsRoundRobin() throws IOException {
    SsdOutputFiles files = files("no-equals-sign");
    int fast = 0;
    for (int spill = 0; spill < 10; spill++) {
      fast += files.getSpillFileForWrite(spill, 1024).toString()
          .startsWith(root.resolve("fast").toString()) ? 1 : 0;
    }
    assertEquals(5, fast, "round-robin over the two dirs");
  }
}
