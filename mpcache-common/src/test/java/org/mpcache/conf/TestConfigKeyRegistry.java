package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.authorize.Service;
import org.junit.jupiter.api.Test;
import org.mpcache.protocol.MpCachePolicyProvider;
import org.w3c.dom.NodeList;

/**
 * One registry of keys: every {@code *_KEY} constant of {@link MpCacheConfigKeys} is in
 * mpcache-default.xml with the default the code falls back to, and in docs/configuration.md's
 * tables, and neither names a key the registry lacks.
 */
class TestConfigKeyRegistry {
  /** A table row's first cell: the key in backquotes. */
  private static final Pattern DOC_ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|");
  /** A default cell that is one value in backquotes and nothing else. */
  private static final Pattern PLAIN_DEFAULT = Pattern.compile("^`([^`]*)`$");
  private static final Pattern OURS =
      Pattern.compile("^(dfs\\.mpcache|mpcache|mapreduce\\.mpcache|security\\.mpcache)\\..*");

  private final Configuration xml = defaultsOnly();

  private static Configuration defaultsOnly() {
    Configuration conf = new Configuration(false);
    conf.addResource(MpCacheConfiguration.DEFAULT_RESOURCE);
    return conf;
  }

  /**
   * The names in the XML, read as XML: Configuration skips a property whose value is empty, as
   * the keys without default have.
   */
  private static Set<String> xmlKeys() throws Exception {
    Set<String> keys = new TreeSet<>();
    try (InputStream in = TestConfigKeyRegistry.class.getClassLoader()
        .getResourceAsStream(MpCacheConfiguration.DEFAULT_RESOURCE)) {
      NodeList names = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in)
          .getElementsByTagName("name");
      for (int i = 0; i < names.getLength(); i++) {
        assertTrue(keys.add(names.item(i).getTextContent().trim()), "twice: " + names.item(i));
      }
    }
    return keys;
  }

  @Test
  void theXmlHasEveryKeyOfTheRegistryAndNoOther() throws Exception {
    assertEquals(MpCacheKeyRegistry.keys(), xmlKeys());
  }

  @Test
  void theXmlDefaultsAreTheJavaDefaults() throws Exception {
    for (Field keyField : MpCacheConfigKeys.class.getFields()) {
      if (!keyField.getName().endsWith("_KEY") || keyField.isAnnotationPresent(Deprecated.class)) {
        continue;
      }
      String key = (String) keyField.get(null);
      String stem = keyField.getName().substring(0, keyField.getName().length() - "_KEY".length());
      Field millis = field(stem + "_DEFAULT_MS");
      Field plain = field(stem + "_DEFAULT");
      String value = xml.getTrimmed(key);
      if (millis != null) {
        // A unit in the XML makes the default independent of what a bare number means.
        assertTrue(value.matches("\\d+[a-z]+"), key + " = '" + value + "' names no unit");
        assertEquals(millis.getLong(null), xml.getTimeDuration(key, -1, TimeUnit.MILLISECONDS),
            key);
      } else if (plain != null) {
        assertEquals(plain.get(null), parsedAs(plain.getType(), key), key);
      } else {
        assertEquals(null, value, key + " has no Java default, so none in the XML either");
      }
    }
  }

  private Object parsedAs(Class<?> type, String key) {
    if (type == boolean.class) {
      return xml.getBoolean(key, false);
    } else if (type == int.class) {
      return xml.getInt(key, -1);
    } else if (type == long.class) {
      return xml.getLongBytes(key, -1);
    } else if (type == double.class) {
      return xml.getDouble(key, Double.NaN);
    }
    return xml.getTrimmed(key);
  }

  private static Field field(String name) {
    try {
      return MpCacheConfigKeys.class.getField(name);
    } catch (NoSuchFieldException e) {
      return null;
    }
  }

  @Test
  void theDocsTablesNameEveryKeyAndNoOther() throws IOException {
    Set<String> documented = docDefaults().keySet();
    Set<String> expected = new TreeSet<>(MpCacheKeyRegistry.keys());
    // Service ACLs live in hadoop-policy.xml: named by the policy provider, not the registry.
    Arrays.stream(new MpCachePolicyProvider().getServices()).map(Service::getServiceKey)
        .forEach(expected::add);
    assertEquals(expected, new TreeSet<>(documented));
  }

  @Test
  void theDocsDefaultsAreTheXmlDefaults() throws IOException {
    List<String> wrong = new ArrayList<>();
    docDefaults().forEach((key, cell) -> {
      Matcher plain = PLAIN_DEFAULT.matcher(cell.trim());
      if (MpCacheKeyRegistry.keys().contains(key) && plain.matches()
          && !sameValue(key, plain.group(1))) {
        wrong.add(key + ": docs `" + plain.group(1) + "`, xml `" + xml.get(key) + "`");
      }
    });
    assertEquals(List.of(), wrong);
  }

  /** Equal as text, or as what the key's readers make of it: a duration, a size, a number. */
  private boolean sameValue(String key, String documented) {
    String value = xml.getTrimmed(key);
    if (documented.equals(value)) {
      return true;
    }
    Configuration doc = new Configuration(false);
    doc.set(key, documented);
    List<Function<Configuration, Object>> readings = List.of(
        conf -> conf.getTimeDuration(key, -1, TimeUnit.MILLISECONDS),
        conf -> conf.getDouble(key, Double.NaN));
    for (Function<Configuration, Object> reading : readings) {
      try {
        if (reading.apply(doc).equals(reading.apply(xml))) {
          return true;
        }
      } catch (RuntimeException notThisKind) {
        // Try the next reading.
      }
    }
    return false;
  }

  /** Each mpCache key in docs/configuration.md's tables with its default cell (first row wins). */
  private static Map<String, String> docDefaults() throws IOException {
    Map<String, String> defaults = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("..", "docs", "configuration.md"))) {
      Matcher row = DOC_ROW.matcher(line);
      if (row.find() && OURS.matcher(row.group(1)).matches() && !row.group(1).contains("<")) {
        defaults.putIfAbsent(row.group(1), row.group(2));
      }
    }
    return defaults;
  }
}
