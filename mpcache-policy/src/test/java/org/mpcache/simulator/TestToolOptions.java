package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TestToolOptions {
  private static final ToolOptions OPTIONS = new ToolOptions("tool [options]")
      .valued("nodes", "N", "7", "nodes of the cluster")
      .valued("csv", "FILE", null, "where the rows go")
      .flag("plan", "print the plan, run nothing");

  @Test
  void givenValuesElseDefaults() {
    ToolOptions.Values values = OPTIONS.parse(new String[] {"--csv", "out.csv", "--plan"});
    assertEquals("7", values.value("nodes"));
    assertEquals("out.csv", values.value("csv"));
    assertTrue(values.has("plan"));
    assertFalse(values.has("nodes"));
    assertEquals("3", OPTIONS.parse(new String[] {"--nodes", "3"}).value("nodes"));
    assertNull(OPTIONS.parse(new String[0]).value("csv"));
    assertEquals("-1", OPTIONS.parse(new String[] {"--nodes", "-1"}).value("nodes"),
        "a negative number is a value");
  }

  @Test
  void aRepeatedOptionTakesItsFirstValue() {
    // dev-support/replay-benchmark.sh puts its --out before the caller's
    assertEquals("/abs", OPTIONS.parse(new String[] {"--csv", "/abs", "--csv", "rel"})
        .value("csv"));
  }

  @Test
  void mistakesAreRefusedNamingTheOption() {
    for (List<String> args : List.of(List.of("--bogus", "1"), List.of("--node", "3"),
        List.of("--nodes"), List.of("--nodes", "3", "stray"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> OPTIONS.parse(args.toArray(String[]::new)), args.toString());
      String named = args.get(args.size() - 1).equals("stray") ? "stray"
          : args.get(0).substring(2);
      assertTrue(e.getMessage().contains(named), e.getMessage());
    }
  }

  @Test
  void aNameTheToolDidNotDeclareIsItsOwnMistake() {
    ToolOptions.Values values = OPTIONS.parse(new String[0]);
    assertThrows(IllegalStateException.class, () -> values.value("nodse"));
  }

  @Test
  void theUsageListsTheOptionsInOrderWithTheirDefaultsThenHelp() {
    String usage = OPTIONS.usage();
    assertTrue(usage.startsWith("usage: tool [options]"), usage);
    assertTrue(usage.contains("--nodes <N>"), usage);
    assertTrue(usage.contains("nodes of the cluster (default 7)"), usage);
    assertTrue(usage.contains("where the rows go\n"), usage);
    int nodes = usage.indexOf("--nodes");
    int csv = usage.indexOf("--csv");
    int plan = usage.indexOf("--plan");
    int help = usage.indexOf("--help");
    assertTrue(nodes < csv && csv < plan && plan < help, usage);
  }
}
