package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every cross-reference in README.md and docs/*.md resolves:
 * <ul>
 * <li>a Markdown link to a local file, {@code [text](path#anchor)}: the file exists relative to
 * the document, and the anchor, when given, is one GitHub makes of a heading of that file;</li>
 * <li>a plain mention of a repository path, {@code docs/...}, {@code dev-support/...},
 * {@code conf/...}, {@code .ci/...}, and in docs/ {@code results/...}: it exists (mentions with a
 * placeholder, {@code <folder>} or {@code *}, are not paths, nor is a {@code commit:path} of git
 * history);</li>
 * <li>a section cited by name, {@code docs/foo.md, "Name"}, {@code foo.md, "Name"} or
 * {@code [foo.md](foo.md), "Name"}, and in the same file {@code "Name" below}, {@code "Name"
 * above} or {@code see "Name"}: the name is a heading of that file or its first words, as the
 * docs cite them ({@code "Evaluation"} for "Evaluation: wholeset against ..."), or the bold
 * lead-in of one of its paragraphs or list items ({@code **Data sets.**}) or its first words.</li>
 * </ul>
 * Fenced code is not prose: only its path mentions are checked (the commands must run).
 */
class TestDocLinks {
  private static final Pattern LINK =
      Pattern.compile("\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Pattern PATH = Pattern.compile(
      "(?<![\\w./$:-])((?:docs|dev-support|conf|\\.ci|results)/[\\w./<>*-]*[\\w>*])");
  private static final Pattern CITED_SECTION = Pattern.compile(
      "((?:docs/)?[\\w.-]+\\.md)(?:\\]\\([^)]*\\))?\\)?,?\\s+\"([^\"]+)\"");
  private static final Pattern SECTION_HERE = Pattern.compile(
      "\"([^\"]+)\"\\s+(?:below|above)\\b|\\bsee\\s+\"([^\"]+)\"");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern BOLD_LEAD =
      Pattern.compile("^\\s*(?:[-*+]\\s+|\\d+\\.\\s+)?\\*\\*([^*]+?)\\*\\*");
  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

  private final Path root = repositoryRoot();
  private final Map<Path, Doc> docs = new HashMap<>();

  @Test
  void everyCrossReferenceInTheDocsResolves() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    try (Stream<Path> list = Files.list(root.resolve("docs"))) {
      list.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    List<String> dangling = new ArrayList<>();
    for (Path file : files) {
      check(file, dangling);
    }
    assertTrue(dangling.isEmpty(), dangling.size() + " dangling reference(s) in the docs:\n  "
        + String.join("\n  ", dangling));
  }

  private void check(Path file, List<String> dangling) throws IOException {
    Doc doc = doc(file);
    Path dir = file.getParent();
    String name = root.relativize(file).toString();
    Matcher link = LINK.matcher(doc.prose);
    while (link.find()) {
      String target = link.group(1);
      if (SCHEME.matcher(target).find()) {
        continue;
      }
      int hash = target.indexOf('#');
      String path = hash < 0 ? target : target.substring(0, hash);
      Path resolved = path.isEmpty() ? file : dir.resolve(path).normalize();
      String where = name + ":" + line(doc.prose, link.start()) + ": link (" + target + ")";
      if (!Files.exists(resolved)) {
        dangling.add(where + ": no such file");
      } else if (hash >= 0) {
        String anchor = target.substring(hash + 1);
        if (!resolved.toString().endsWith(".md") || !doc(resolved).anchors.contains(anchor)) {
          dangling.add(where + ": no heading with anchor #" + anchor + " in " + resolved
              .getFileName());
        }
      }
    }
    Matcher path = PATH.matcher(doc.withoutLinkTargets);
    while (path.find()) {
      String mention = path.group(1);
      if (mention.contains("<") || mention.contains("*")) {
        continue;
      }
      Path base = mention.startsWith("results/") ? dir : root;
      if (!Files.exists(base.resolve(mention))) {
        dangling.add(name + ":" + line(doc.withoutLinkTargets, path.start()) + ": path "
            + mention + ": no such file or folder");
      }
    }
    Matcher cited = CITED_SECTION.matcher(doc.prose);
    while (cited.find()) {
      String target = cited.group(1);
      String section = cited.group(2).replaceAll("\\s+", " ").trim();
      String where = name + ":" + line(doc.prose, cited.start()) + ": " + target + ", \""
          + section + "\"";
      Path resolved = target.startsWith("docs/") ? root.resolve(target) : dir.resolve(target);
      if (!Files.exists(resolved)) {
        resolved = root.resolve("docs").resolve(Path.of(target).getFileName());
      }
      if (!Files.exists(resolved)) {
        dangling.add(where + ": no such file");
      } else if (!doc(resolved).hasSection(section)) {
        dangling.add(where + ": no such section in " + resolved.getFileName());
      }
    }
    Matcher here = SECTION_HERE.matcher(doc.prose);
    while (here.find()) {
      String section = (here.group(1) != null ? here.group(1) : here.group(2))
          .replaceAll("\\s+", " ").trim();
      if (!doc.hasSection(section)) {
        dangling.add(name + ":" + line(doc.prose, here.start()) + ": \"" + section
            + "\": no such section in this file");
      }
    }
  }

  /** The line of {@code offset} in {@code text} (prose and text keep the same lines). */
  private static int line(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private Doc doc(Path file) throws IOException {
    Path key = file.toAbsolutePath().normalize();
    Doc doc = docs.get(key);
    if (doc == null) {
      doc = new Doc(Files.readString(key, StandardCharsets.UTF_8));
      docs.put(key, doc);
    }
    return doc;
  }

  /** A document: its prose (fenced code blanked, lines kept), headings, anchors and lead-ins. */
  private static final class Doc {
    private final String prose;
    private final String withoutLinkTargets;
    private final List<String> headings = new ArrayList<>();
    private final List<String> leadIns = new ArrayList<>();
    private final Set<String> anchors = new LinkedHashSet<>();

    Doc(String text) {
      StringBuilder prose = new StringBuilder();
      boolean fenced = false;
      Map<String, Integer> slugs = new HashMap<>();
      for (String line : text.split("\n", -1)) {
        if (FENCE.matcher(line).find()) {
          fenced = !fenced;
          prose.append('\n');
          continue;
        }
        if (fenced) {
          prose.append('\n');
          continue;
        }
        prose.append(line).append('\n');
        Matcher heading = HEADING.matcher(line);
        if (heading.matches()) {
          String plain = plain(heading.group(2));
          headings.add(plain);
          String slug = slug(heading.group(2));
          int seen = slugs.merge(slug, 1, Integer::sum) - 1;
          anchors.add(seen == 0 ? slug : slug + "-" + seen);
        }
        Matcher bold = BOLD_LEAD.matcher(line);
        if (bold.find()) {
          leadIns.add(bold.group(1).replaceAll("[.:]\\s*$", "").trim());
        }
      }
      this.prose = prose.toString();
      // Path mentions are looked for in fenced code too, but not in link targets (checked above).
      this.withoutLinkTargets = text.replaceAll("\\]\\([^)\\s]*\\)", "]");
    }

    boolean hasSection(String name) {
      return headings.stream().anyMatch(h -> begins(h, name))
          || leadIns.stream().anyMatch(l -> begins(l, name));
    }

    /** {@code name} is {@code title} or its first words (up to a space or a mark such as ":"). */
    private static boolean begins(String title, String name) {
      return title.equals(name) || title.startsWith(name)
          && !Character.isLetterOrDigit(title.charAt(name.length()))
          && title.charAt(name.length()) != '-' && title.charAt(name.length()) != '\'';
    }

    /** A heading as read: links as their text, no code or emphasis marks. */
    private static String plain(String heading) {
      return heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("[`*]", "")
          .replaceAll("\\s+", " ").trim();
    }

    /**
     * GitHub's anchor for a heading: its text lower-cased, every character but letters, digits,
     * spaces, hyphens and underscores dropped, spaces made hyphens.
     */
    private static String slug(String heading) {
      String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
          .toLowerCase(Locale.ROOT);
      return text.codePoints()
          .filter(c -> Character.isLetterOrDigit(c) || c == ' ' || c == '-' || c == '_')
          .mapToObj(c -> c == ' ' ? "-" : new String(Character.toChars(c)))
          .collect(Collectors.joining());
    }
  }

  /**
   * The repository's root: the first folder up from the working directory with README.md
   * and docs/.
   */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md"))
          && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no README.md with docs/ above " + Path.of("")
        .toAbsolutePath());
  }
}
