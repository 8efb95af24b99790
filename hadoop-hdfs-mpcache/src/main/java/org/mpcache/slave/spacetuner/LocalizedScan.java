package org.mpcache.slave.spacetuner;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One measurement of the localized dirs: bytes of the files under them, by the task attempt
 * their path names. A path the DataNode may not read (a secure cluster's NodeManager makes
 * application dirs owned by the application's user) is skipped and listed: the rest is still
 * counted, and the running attempts' grants still count for what they hold there.
 *
 * <p>Tasks write these dirs. The walk never leaves them: each dir is opened relative to the one
 * it is in and only if it is no link ({@code openat} with {@code O_NOFOLLOW}, through a
 * {@link SecureDirectoryStream}), so a dir a task swaps for a link between a look and an open is
 * not entered; a link is neither entered nor counted, no file is opened, and the walk goes at
 * most {@link #MAX_DEPTH} dirs deep. The names it keeps are bounded: the attempts the slave knows
 * are counted one by one; of the others, the first {@link #MAX_OTHER_ATTEMPTS} found, and files
 * of any beyond them as files of no attempt.
 */
final class LocalizedScan {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedScan.class);
  /** A MapReduce task attempt id, as YARN names the attempt's dirs. */
  static final Pattern ATTEMPT = Pattern.compile("attempt_\\d+_\\d+_[mr]_\\d+_\\d+");
  /**
   * Attempts the slave does not know (ended, or of a job that asked nothing) counted by name:
   * more than a node keeps files of; a task inventing names makes the scan keep no more.
   */
  static final int MAX_OTHER_ATTEMPTS = 10_000;
  /** YARN's layout is about ten dirs deep; what lies deeper is not counted. */
  static final int MAX_DEPTH = 64;

  private final Set<String> known;
  private final int maxOthers;
  private final Map<String, Long> bytesByAttempt = new HashMap<>();
  private final List<Path> unreadable = new ArrayList<>();
  private int others;

  private LocalizedScan(Set<String> known, int maxOthers) {
    this.known = known;
    this.maxOthers = maxOthers;
  }

  /**
   * Measures {@code dirs}, leaving out the files at their top whose name starts with
   * {@code ignoredPrefix} (the slave's own).
   *
   * @param known the attempts to count whatever else the dirs hold
   */
  static LocalizedScan of(List<Path> dirs, String ignoredPrefix, Set<String> known)
      throws IOException {
    return of(dirs, ignoredPrefix, known, MAX_OTHER_ATTEMPTS);
  }

  static LocalizedScan of(List<Path> dirs, String ignoredPrefix, Set<String> known,
      int maxOthers) throws IOException {
    LocalizedScan scan = new LocalizedScan(known, maxOthers);
    for (Path dir : dirs) {
      try (DirectoryStream<Path> top = Files.newDirectoryStream(dir)) {
        if (!(top instanceof SecureDirectoryStream<Path> secure)) {
          throw new IOException("the file system of " + dir + " cannot open a dir relative to"
              + " another without following links (no SecureDirectoryStream): its files are not"
              + " counted");
        }
        scan.walk(dir, secure, 0, ignoredPrefix);
      }
    }
    return scan;
  }

  Map<String, Long> bytesByAttempt() {
    return bytesByAttempt;
  }

  /** Paths skipped because they could not be read. */
  List<Path> unreadable() {
    return unreadable;
  }

  private void walk(Path top, SecureDirectoryStream<Path> dir, int depth, String ignoredPrefix)
      throws IOException {
    for (Path entry : dir) {
      Path name = entry.getFileName();
      BasicFileAttributes attrs;
      try {
        attrs = dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS)
            .readAttributes();
      } catch (IOException e) {
        skipped(entry, e);
        continue;
      }
      if (attrs.isDirectory() && depth < MAX_DEPTH) {
        try (SecureDirectoryStream<Path> child = dir.newDirectoryStream(name, NOFOLLOW_LINKS)) {
          walk(top, child, depth + 1, ignoredPrefix);
        } catch (IOException e) {
          skipped(entry, e); // swapped for a link or a file since the look: not entered
        }
      } else if (attrs.isRegularFile()
          && !(depth == 0 && name.toString().startsWith(ignoredPrefix))) {
        counted(top.relativize(entry), attrs.size());
      }
    }
  }

  /** A regular file of {@code bytes} at {@code path} under a localized dir. */
  void counted(Path path, long bytes) {
    Matcher attempt = ATTEMPT.matcher(path.toString());
    bytesByAttempt.merge(attempt.find() ? nameOf(attempt.group()) : LocalizedLedger.NO_ATTEMPT,
        bytes, Long::sum);
  }

  /**
   * A path that could not be looked at or entered: one the DataNode may not read is listed;
   * one gone or changed since it was listed (a task or YARN at work) is passed over.
   */
  void skipped(Path path, IOException cause) {
    if (cause instanceof AccessDeniedException) {
      unreadable.add(path);
    } else if (!(cause instanceof NoSuchFileException)) {
      LOG.debug("mpCache: not counting {} under the localized dirs: {}", path, cause.toString());
    }
  }

  /** The name the attempt's files are counted under. */
  private String nameOf(String attempt) {
    if (known.contains(attempt) || bytesByAttempt.containsKey(attempt)) {
      return attempt;
    }
    if (others < maxOthers) {
      others++;
      return attempt;
    }
    return LocalizedLedger.NO_ATTEMPT;
  }
}
