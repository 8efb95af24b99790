package org.mpcache.bench.harness;

/** Text made safe for XML (the XHTML page and its inline SVG). */
final class Xml {
  private Xml() {
  }

  /** Text escaped for element content and double-quoted attribute values. */
  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
