package org.mpcache.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mpcache.bench.harness.Dom.byId;
import static org.mpcache.bench.harness.Dom.elements;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.mpcache.bench.harness.Table.Cell;
import org.mpcache.bench.harness.Table.Style;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

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

  @Test
  void thePageEscapesTextMarksVerdictsAndPutsDetailsOnALineOfTheirOwn() throws Exception {
    Document page = Dom.parse(HtmlPage.of("a & b", List.of("**Devices were emulated** <here>"),
        List.of(new Section("s", "S", List.of(), table(), List.of()))));
    assertEquals("a & b", page.getElementsByTagName("title").item(0).getTextContent());
    Element strong = (Element) page.getElementsByTagName("strong").item(0);
    assertEquals("Devices were emulated", strong.getTextContent());
    Element table = byId(page, "table-s");
    assertEquals("a <b> & c", elements(table, "td", "text").get(1).getTextContent());
    assertEquals(1, elements(table, "td", "pass").size());
    assertEquals(1, elements(table, "td", "fail").size());
    assertEquals("(2.05–2.80)", elements(table, "span", "detail").get(0).getTextContent());
    assertEquals(List.of("th", "th number", "th"), elements(table, "th", null).stream()
        .map(th -> "th" + (th.getAttribute("class").isEmpty() ? "" : " "
            + th.getAttribute("class"))).toList());
  }
}
