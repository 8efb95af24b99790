package org.mpcache.slave;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measurement of the localized dirs: bytes of the files under them, by the task attempt
 * their path names. A path the DataNode may not read (a secure cluster's NodeManager makes
 * application dirs owned by the application's user) is skipped and listed: the rest is still
 * counted, and the running attempts' grants still count for what they hold there.
 *
 * <p>Tasks write these dirs: the walk follows no link (a link is neither counted nor entered)
 * and opens no file, and the names it keeps are bounded. The attempts the slave knows are
 * counted one by one; of the others, the first {@link #MAX_OTHER_ATTEMPTS} found, and files
 * of any beyond them as files of no attempt.
 */
final class LocalizedScan {
  /** A MapReduce task attempt id, as YARN names the attempt's dirs. */
  static final Pattern ATTEMPT = Pattern.compile("attempt_\\d+_\\d+_[mr]_\\d+_\\d+");
  /**
   * Attempts the slave does not know (ended, or of a job that asked nothing) counted by name:
   * more than a node keeps files of; a task inventing names makes the scan keep no more.
   */
  static final int MAX_OTHER_ATTEMPTS = 10_000;

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
   * Measures {@code dirs}, leaving out files whose name starts with {@code ignoredPrefix}.
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
      Files.walkFileTree(dir, scan.visitor(dir, ignoredPrefix));
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

  /** The name the attempt's files are counted under. */
  private String counted(String attempt) {
    if (known.contains(attempt) || bytesByAttempt.containsKey(attempt)) {
      return attempt;
    }
    if (others < maxOthers) {
      others++;
      return attempt;
    }
    return LocalizedLedger.NO_ATTEMPT;
  }

  SimpleFileVisitor<Path> visitor(Path dir, String ignoredPrefix) {
    return new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile() && !file.getFileName().toString().startsWith(ignoredPrefix)) {
          Matcher attempt = ATTEMPT.matcher(dir.relativize(file).toString());
          bytesByAttempt.merge(attempt.find() ? counted(attempt.group())
              : LocalizedLedger.NO_ATTEMPT, attrs.size(), Long::sum);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE; // deleted while walking: a task or YARN cleaned up
        }
        if (e instanceof AccessDeniedException) {
          unreadable.add(file);
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }
    };
  }
}
