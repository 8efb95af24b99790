package org.mpcache.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;

/** The release line check that every plugin makes when it starts. */
class TestHadoopRelease {
  @Test
  void theBuildRecordsTheHadoopItIsTestedAgainst() {
    assertEquals(VersionInfo.getVersion(), HadoopRelease.BUILT_AGAINST);
    assertNull(HadoopRelease.mismatch("this test"));
  }

  @Test
  void releasesOfTheSameLineMatch() {
    assertEquals("3.5", HadoopRelease.line("3.5.0"));
    assertNull(HadoopRelease.mismatch("x", "3.5.0", "3.5.1"));
    assertNull(HadoopRelease.mismatch("x", "3.5.0", "3.5.2-SNAPSHOT"));
  }

  @Test
  void anotherLineIsNamedWithBothVersions() {
    for (String running : new String[] {"3.4.1", "3.6.0", "4.0.0-SNAPSHOT", "Unknown"}) {
      String message = HadoopRelease.mismatch("the mpCache master", "3.5.0", running);
      assertTrue(message != null && message.contains("Hadoop 3.5.0") && message.contains(
          "Hadoop " + running) && message.contains("the mpCache master"), running + ": " + message);
    }
  }
}
