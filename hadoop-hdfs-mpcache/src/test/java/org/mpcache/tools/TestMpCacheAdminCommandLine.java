package org.mpcache.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs mpcacheadmin}'s command line, as Hadoop's admin tools behave: -help exits 0,
 * unknown or conflicting options exit 2 with the usage, no master configured exits 1. The calls
 * to a running master are tested in TestMasterCluster.
 */
class TestMpCacheAdminCommandLine {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    out.reset();
    err.reset();
    return new MpCacheAdmin(new Configuration(false),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpPrintsEveryOptionAndExitsZero() throws Exception {
    assertEquals(0, run("-help"));
    String help = out.toString(StandardCharsets.UTF_8);
    for (String option : new String[] {"-report", "-datasets", "-locations <path>", "-json",
        "-master <on|off>", "-timeout <duration>", "-help"}) {
      assertTrue(help.contains(option), option + " missing from:\n" + help);
    }
  }

  @Test
  void badCommandLinesExitTwoNamingTheProblem() throws Exception {
    assertEquals(2, run("-bogus"));
    assertTrue(err().contains("Unrecognized option: -bogus"), err());
    assertEquals(2, run());
    assertTrue(err().contains("give one of"), err());
    assertEquals(2, run("-report", "-datasets"));
    assertEquals(2, run("-report", "extra"));
    assertTrue(err().contains("unexpected argument extra"), err());
    assertEquals(2, run("-locations"));
    assertEquals(2, run("-locations", "/f", "-json"));
    assertEquals(2, run("-report", "-timeout", "soon"));
    assertTrue(err().contains("-timeout takes a duration"), err());
    assertEquals(2, run("-master", "sometimes"));
    assertTrue(err().contains("-master takes on or off, got sometimes"), err());
    assertEquals(2, run("-master", "off", "-json"));
    assertEquals(2, run("-report", "-timeout", "0s"));
    assertTrue(err().contains("usage: hdfs mpcacheadmin"), err());
  }

  @Test
  void noMasterConfiguredExitsOneNamingTheKeys() throws Exception {
    assertEquals(1, run("-report", "-timeout", "2s"));
    assertTrue(err().contains("dfs.mpcache.master.address"), err());
  }
}
