package org.mpcache.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Each verb as a command line it takes, with the options its usage lists. */
  static Stream<Arguments> verbs() {
    return Stream.of(
        Arguments.of(new String[] {"-report"}, new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-datasets"}, new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-locations", "/f"}, new String[] {"-timeout <duration>"}),
        Arguments.of(new String[] {"-master", "off"}, new String[] {"-timeout <duration>"}),
        Arguments.of(new String[] {"-refresh"}, new String[] {"-timeout <duration>"}),
        Arguments.of(new String[] {"-pin", "/d"}, new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-unpin", "/d"},
            new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-free", "/d"}, new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-ttl", "/d", "2h"},
            new String[] {"-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-load", "/d"},
            new String[] {"-wait", "-json", "-timeout <duration>"}),
        Arguments.of(new String[] {"-getconf"}, new String[] {"-json"}));
  }

  @ParameterizedTest
  @MethodSource("verbs")
  void helpOnAVerbPrintsItsOptionsAndExitsZero(String[] line, String[] options)
      throws Exception {
    String verb = line[0];
    for (String[] help : new String[][] {{"-help", verb}, {"-help", verb.substring(1)},
        Stream.concat(Arrays.stream(line), Stream.of("-help")).toArray(String[]::new)}) {
      assertEquals(0, run(help), Arrays.toString(help) + ": " + err());
      assertTrue(out().startsWith(verb), out());
      for (String option : options) {
        assertTrue(out().contains("[" + option + "]"), option + " missing from:\n" + out());
        assertTrue(out().contains("\n" + option + " "), option + " undescribed in:\n" + out());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("verbs")
  void everyVerbRefusesAnUnknownOptionNamingIt(String[] line, String[] options)
      throws Exception {
    // before the verb: -getconf would take the next word for its key
    String[] withBogus = Stream.concat(Stream.of("-bogus"), Arrays.stream(line))
        .toArray(String[]::new);
    assertEquals(2, run(withBogus));
    assertTrue(err().contains("Unrecognized option: -bogus"), err());
    if (!Arrays.asList(options).contains("-wait")) {
      // an option of another verb: the verb's own usage says what it takes
      String[] withWait = Stream.concat(Stream.of("-wait"), Arrays.stream(line))
          .toArray(String[]::new);
      assertEquals(2, run(withWait));
      assertTrue(err().contains("Unrecognized option: -wait"), err());
      assertTrue(err().contains("usage: hdfs mpcacheadmin [generic options] " + line[0]),
          err());
    }
  }

  @Test
  void helpListsEveryVerbsUsageAndRefusesAnUnknownOne() throws Exception {
    assertEquals(0, run("-help"));
    verbs().forEach(verb -> {
      String name = ((String[]) verb.get()[0])[0];
      assertTrue(out().contains("\n  " + name), name + " missing from the usage:\n" + out());
    });
    assertEquals(2, run("-help", "bogus"));
    assertTrue(err().contains("no command bogus"), err());
    assertEquals("", out());
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
