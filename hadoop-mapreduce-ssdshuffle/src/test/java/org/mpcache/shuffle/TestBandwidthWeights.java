package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.conf.MpCacheConfigKeys;

class TestBandwidthWeights {
  private static final List<String> DIRS = List.of("/mnt/hdd0/yarn/usercache/u/appcache/a",
      "/mnt/hdd1/yarn/usercache/u/appcache/a", "/mnt/fast/yarn/usercache/u/appcache/a");

  @Test
  void eachDirWeighsTheBandwidthOfItsLongestPrefix() {
    double[] weights = BandwidthWeights.of(DIRS,
        new String[] {"/mnt/=100", "/mnt/fast=400", " /mnt/hdd1 = 50 "});
    assertArrayEquals(new double[] {100, 50, 400}, weights);
  }

  @Test
  void dirsAreChosenInProportionToTheirBandwidth() {
    double[] weights = {100, 50, 400};
    boolean[] all = {true, true, true};
    int[] chosen = new int[3];
    for (int i = 0; i < 550; i++) {
      chosen[BandwidthWeights.choose(weights, all, (i + 0.5) / 550)]++;
    }
    assertArrayEquals(new int[] {100, 50, 400}, chosen);
  }

  @Test
  void aDirWithoutRoomIsSkippedAndNoneLeftIsSaid() {
    double[] weights = {100, 50, 400};
    assertEquals(1, BandwidthWeights.choose(weights, new boolean[] {false, true, false}, 0.9));
    assertEquals(-1, BandwidthWeights.choose(weights, new boolean[] {false, false, false}, 0.1));
  }

  @Test
  void badValuesAreRefusedNamingTheKey() {
    IllegalArgumentException uncovered = assertThrows(IllegalArgumentException.class,
        () -> BandwidthWeights.of(DIRS, new String[] {"/mnt/hdd=100"}));
    assertEquals(MpCacheConfigKeys.MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY + ": no bandwidth for local dir " + DIRS.get(2),
        uncovered.getMessage());
    IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
        () -> BandwidthWeights.of(DIRS, new String[] {"/mnt:100"}));
    assertEquals(MpCacheConfigKeys.MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY + ": '/mnt:100' is not <dir prefix>=<MB/s>",
        malformed.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> BandwidthWeights.of(DIRS, new String[] {"/mnt=0"}));
  }
}
