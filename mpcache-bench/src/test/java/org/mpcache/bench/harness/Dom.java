package org.mpcache.bench.harness;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Reads the report's XHTML and SVG back with the JDK's XML parser, as the tests check them. */
final class Dom {
  private Dom() {
  }

  /** The document, or the parser's exception where the text is not well-formed XML. */
  static Document parse(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  static Element byId(Document document, String id) {
    return elements(document.getDocumentElement(), "*", null).stream()
        .filter(e -> e.getAttribute("id").equals(id)).findFirst().orElse(null);
  }

  /** The elements named {@code tag} ("*": any) under {@code in} of that class (null: any). */
  static List<Element> elements(Element in, String tag, String cssClass) {
    List<Element> found = new ArrayList<>();
    NodeList all = in.getElementsByTagName(tag);
    for (int i = 0; i < all.getLength(); i++) {
      Element e = (Element) all.item(i);
      if (cssClass == null || e.getAttribute("class").equals(cssClass)) {
        found.add(e);
      }
    }
    return found;
  }
}
