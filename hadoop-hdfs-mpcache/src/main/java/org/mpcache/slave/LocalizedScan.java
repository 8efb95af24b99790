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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measurement of the localized dirs: bytes of the files under them, by the task attempt
 * their path names. A path the DataNode may not read (a secure cluster's NodeManager makes
 * application dirs owned by the application's user) is skipped and listed: the rest is still
 * counted, and the running attempts' grants still count for what they hold there.
 */
final class LocalizedScan {
  /** A MapReduce task attempt id, as YARN names the attempt's dirs. */
  static final Pattern ATTEMPT = Pattern.compile("attempt_\\d+_\\d+_[mr]_\\d+_\\d+");

  private final Map<String, Long> bytesByAttempt = new HashMap<>();
  private final List<Path> unreadable = new ArrayList<>();

  /** Measures {@code dirs}, leaving out files whose name starts with {@code ignoredPrefix}. */
  static LocalizedScan of(List<Path> dirs, String ignoredPrefix) throws IOException {
    LocalizedScan scan = new LocalizedScan();
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

  SimpleFileVisitor<Path> visitor(Path dir, String ignoredPrefix) {
    return new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile() && !file.getFileName().toString().startsWith(ignoredPrefix)) {
          Matcher attempt = ATTEMPT.matcher(dir.relativize(file).toString());
          bytesByAttempt.merge(attempt.find() ? attempt.group() : LocalizedLedger.NO_ATTEMPT,
              attrs.size(), Long::sum);
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
