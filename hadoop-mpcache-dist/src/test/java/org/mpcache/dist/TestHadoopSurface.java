package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Every Hadoop class mpCache subclasses, found in mpCache's own jars (those Maven marks with the
 * group {@code org.mpcache}), has the surface it was last checked against: its declared methods
 * that are not private and not synthetic, each as modifiers, return type, name and parameter
 * types, listed in {@code src/test/resources/hadoop-surface/<class>.txt}. A Hadoop release that
 * adds or removes one (a new way to change a replica that {@code MpCacheFsDataset} does not
 * bracket, say) fails this test naming it, and so does a subclassed class with no list, or a list
 * of a class no longer subclassed (docs/architecture.md, "Hadoop internals"). After reviewing what
 * changed, write the lists anew with {@code -Dmpcache.surface.write=true}.
 */
class TestHadoopSurface {
  private static final String HADOOP = "org.apache.hadoop.";
  /** Libraries Hadoop shades (protobuf, whose generated messages extend its classes). */
  private static final String SHADED = "org.apache.hadoop.thirdparty.";
  private static final String MPCACHE_JAR_MARK = "META-INF/maven/org.mpcache/";
  private static final Path LISTS = Path.of("src/test/resources/hadoop-surface");

  @Test
  void everySubclassedHadoopClassHasTheSurfaceItWasCheckedAgainst() throws Exception {
    Map<String, Set<String>> subclassed = subclassedHadoopClasses();
    assertTrue(subclassed.containsKey(
        "org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl"),
        "mpCache's jars are not on the test classpath: found " + subclassed.keySet());
    boolean write = Boolean.getBoolean("mpcache.surface.write");
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Set<String>> hadoopClass : subclassed.entrySet()) {
      String name = hadoopClass.getKey();
      List<String> now = surface(Class.forName(name, false, loader()));
      Path list = LISTS.resolve(name + ".txt");
      if (write) {
        Files.createDirectories(LISTS);
        Files.write(list, now, StandardCharsets.UTF_8);
      } else if (!Files.exists(list)) {
        problems.add(name + " (subclassed by " + hadoopClass.getValue() + ") has no list "
            + list + ": review its methods and write it");
      } else {
        List<String> listed = Files.readAllLines(list, StandardCharsets.UTF_8);
        Set<String> added = new TreeSet<>(now);
        listed.forEach(added::remove);
        Set<String> removed = new TreeSet<>(listed);
        now.forEach(removed::remove);
        if (!added.isEmpty() || !removed.isEmpty()) {
          problems.add(name + " (subclassed by " + hadoopClass.getValue() + ") changed since "
              + list + ": added " + added + ", removed " + removed);
        }
      }
    }
    try (var lists = Files.list(LISTS)) {
      for (Path list : lists.toList()) {
        String name = list.getFileName().toString().replaceFirst("\\.txt$", "");
        if (!subclassed.containsKey(name)) {
          problems.add(list + " lists " + name + ", which no mpCache class subclasses any more");
        }
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  /** A class's declared methods that are neither private nor synthetic, one line each, sorted. */
  static List<String> surface(Class<?> type) {
    return Arrays.stream(type.getDeclaredMethods())
        .filter(m -> !Modifier.isPrivate(m.getModifiers()) && !m.isSynthetic())
        .map(TestHadoopSurface::line).sorted().toList();
  }

  private static String line(Method m) {
    String modifiers = Modifier.toString(m.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED
        | Modifier.STATIC | Modifier.ABSTRACT | Modifier.FINAL | Modifier.SYNCHRONIZED));
    String parameters = Arrays.stream(m.getParameterTypes()).map(Class::getTypeName)
        .collect(Collectors.joining(", "));
    return (modifiers.isEmpty() ? "" : modifiers + " ") + m.getReturnType().getTypeName() + " "
        + m.getName() + "(" + parameters + ")";
  }

  /** Each Hadoop class that a class of mpCache's jars extends, with those that extend it. */
  private static Map<String, Set<String>> subclassedHadoopClasses() throws IOException {
    Set<String> ours = new TreeSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        try (JarFile jar = new JarFile(entry)) {
          if (jar.stream().anyMatch(e -> e.getName().startsWith(MPCACHE_JAR_MARK))) {
            jar.stream().map(JarEntry::getName)
                .filter(file -> file.endsWith(".class") && !file.equals("module-info.class"))
                .map(file -> file.substring(0, file.length() - 6).replace('/', '.'))
                .forEach(ours::add);
          }
        }
      }
    }
    // Some of mpCache's classes live in Hadoop's packages: only a superclass not of its jars is
    // Hadoop's.
    Map<String, Set<String>> subclassed = new TreeMap<>();
    for (String name : ours) {
      Class<?> parent = superclassOf(name);
      if (parent != null && parent.getName().startsWith(HADOOP)
          && !parent.getName().startsWith(SHADED) && !ours.contains(parent.getName())) {
        subclassed.computeIfAbsent(parent.getName(), k -> new TreeSet<>()).add(name);
      }
    }
    return subclassed;
  }

  private static Class<?> superclassOf(String name) {
    try {
      return Class.forName(name, false, loader()).getSuperclass();
    } catch (ClassNotFoundException | LinkageError e) {
      throw new AssertionError("cannot load " + name + " (" + e + "): the jar of the Hadoop class"
          + " it extends must be on hadoop-mpcache-dist's test classpath to check its surface", e);
    }
  }

  private static ClassLoader loader() {
    return TestHadoopSurface.class.getClassLoader();
  }
}
