package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.Table.Cell;
import org.mpcache.bench.harness.Table.Style;

class TestTable {
  private static Table table() {
    return new Table("configuration", "ratio", "verdict")
        .row(Cell.text("mpcache"), new Cell("2.40×", "(2.05–2.80)", Style.NUMBER),
            new Cell("pass", Style.PASS))
        .row(Cell.text("a <b> & c"), Cell.number("1.00×"), new Cell("fail", Style.FAIL));
  }

  @Test
  void markdownPadsColumnsAndAlignsNumbersRight() {
    assertEquals("""
        | configuration |             ratio | verdict |
        |---------------|------------------:|---------|
        | mpcache       | 2.40× (2.05–2.80) | pass    |
        | a <b> & c     |             1.00× | fail    |
        """, table().markdown());
  }

  @Test
  void everyRowHasACellPerColumn() {
    assertThrows(IllegalArgumentException.class, () -> table().row(Cell.text("one")));
  }
}
