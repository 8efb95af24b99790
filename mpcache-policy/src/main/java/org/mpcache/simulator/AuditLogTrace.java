package org.mpcache.simulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The trace of a cluster's own reads: the NameNode's HDFS audit log (the {@code
 * FSNamesystem.audit} logger's lines, {@code cmd=open} each file a client or task opens) with the
 * files' sizes from a listing of the namespace (the Delimited output of {@code hdfs oiv}, whose
 * header names the Path and FileSize columns). docs/policies.md, "Real workloads", says how to
 * get both.
 *
 * <ul>
 *   <li><b>A job</b> is the opens of one application (the application id its caller context
 *   names, as MapReduce tasks set {@code mr_attempt_<id>}), else of one user, with no pause longer
 *   than {@code jobGapSeconds} between them: a pause that long starts another job of the same
 *   application or user (a Hive or Tez session runs many queries in one application).</li>
 *   <li><b>A data set</b> is a directory (what the master takes by default): its files in name
 *   order, each file's size in blocks of the trace's block size. A job reading files of several
 *   directories makes one access of each, in the order it first opened them; it reads the
 *   blocks of the files it opened (all of a directory's: a whole read).</li>
 *   <li><b>Left out</b>, and counted: refused opens, files the listing does not hold (created
 *   after it was taken, or deleted before), and files under a name starting with {@code .} or
 *   {@code _} (job staging dirs, {@code _SUCCESS}: what Hadoop's input formats skip as hidden).
 *   </li>
 * </ul>
 */
public final class AuditLogTrace {
  private static final Pattern APPLICATION = Pattern.compile("(\\d{10,})_(\\d{4,})");
  /** What follows a ugi's short name: its realm or host, how it authenticated, its proxy. */
  private static final Pattern USER = Pattern.compile("[ @/].*$");
  private static final DateTimeFormatter LOG4J_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS", Locale.ROOT);
  private static final int LOG4J_TIME_LENGTH = 23;
  private static final int DATE_LENGTH = 10;

  /** What the reader made of the log: the trace and what it left out. */
  public record Reading(Trace trace, long opens, long jobs, long refused, long unlisted,
      long hidden) {
    /** One line for the simulator's output. */
    public String describe() {
      return String.format(Locale.ROOT, "audit log: %d opens in %d jobs, %d data-set accesses;"
          + " left out: %d refused, %d of files the listing does not hold, %d of hidden files",
          opens, jobs, trace.jobs(), refused, unlisted, hidden);
    }
  }

  /** A file of the listing: its directory, and its blocks' place among the directory's. */
  private record ListedFile(String directory, int firstBlock, int blocks) {
  }

  /** One job's opens so far: when it last opened a file, and the files by directory. */
  private static final class OpenJob {
    final long firstOpen;
    long lastOpen;
    final Map<String, Set<ListedFile>> files = new LinkedHashMap<>();

    OpenJob(long at) {
      firstOpen = at;
      lastOpen = at;
    }
  }

  private AuditLogTrace() {
  }

  /**
   * Reads the audit log against the listing.
   *
   * @param base the cluster (nodes, cache and block size) and the seed of the placement
   */
  public static Reading read(Path auditLog, Path listing, long jobGapSeconds,
      PolicySimulator.Settings base) throws IOException {
    if (jobGapSeconds <= 0) {
      throw new IllegalArgumentException("a job gap of " + jobGapSeconds + " s: expected a"
          + " positive number of seconds");
    }
    long blockBytes = (long) base.blockMb() << 20;
    Map<String, Integer> directoryBlocks = new HashMap<>();
    Map<String, ListedFile> files = listing(listing, blockBytes, directoryBlocks);
    Map<String, OpenJob> open = new HashMap<>();
    List<OpenJob> jobs = new ArrayList<>();
    long opens = 0;
    long refused = 0;
    long unlisted = 0;
    long hidden = 0;
    try (BufferedReader in = Files.newBufferedReader(auditLog, StandardCharsets.UTF_8)) {
      int lineNumber = 0;
      for (String line; (line = in.readLine()) != null;) {
        lineNumber++;
        int fields = line.indexOf("allowed=");
        if (fields < 0) {
          continue; // not an audit event (a line a logger wrapped, a rotated file's header)
        }
        Map<String, String> event = fields(line.substring(fields));
        if (!"open".equals(event.get("cmd"))) {
          continue;
        }
        opens++;
        long at = time(auditLog, lineNumber, line);
        if (!"true".equals(event.get("allowed"))) {
          refused++;
          continue;
        }
        String path = unescapeJava(event.getOrDefault("src", ""));
        if (isHidden(path)) {
          hidden++;
          continue;
        }
        ListedFile file = files.get(path);
        if (file == null) {
          unlisted++;
          continue;
        }
        String key = jobKey(event);
        OpenJob job = open.get(key);
        if (job == null || at - job.lastOpen > jobGapSeconds * 1000) {
          job = new OpenJob(at);
          open.put(key, job);
          jobs.add(job);
        }
        job.lastOpen = Math.max(job.lastOpen, at);
        job.files.computeIfAbsent(file.directory(), d -> new HashSet<>()).add(file);
      }
    }
    jobs.sort((a, b) -> Long.compare(a.firstOpen, b.firstOpen)); // stable: log order on ties
    RealTraceBuilder trace = new RealTraceBuilder(base);
    long jobsReading = 0;
    for (OpenJob job : jobs) {
      boolean reads = false;
      for (Map.Entry<String, Set<ListedFile>> directory : job.files.entrySet()) {
        int[] part = part(directory.getValue());
        if (part.length > 0) { // not only empty files
          trace.read(directory.getKey(), directoryBlocks.get(directory.getKey()), part);
          reads = true;
        }
      }
      jobsReading += reads ? 1 : 0;
    }
    return new Reading(trace.build(), opens, jobsReading, refused, unlisted, hidden);
  }

  /**
   * The listing's files (directories and empty files hold no blocks), each directory's files in
   * name order; fills each directory's blocks.
   */
  private static Map<String, ListedFile> listing(Path listing, long blockBytes,
      Map<String, Integer> directoryBlocks) throws IOException {
    Map<String, TreeMap<String, Long>> byDirectory = new HashMap<>();
    try (BufferedReader in = Files.newBufferedReader(listing, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      String[] columns = header == null ? new String[0] : header.split("\t", -1);
      int pathColumn = List.of(columns).indexOf("Path");
      int sizeColumn = List.of(columns).indexOf("FileSize");
      int permissionColumn = List.of(columns).indexOf("Permission");
      if (pathColumn < 0 || sizeColumn < 0 || permissionColumn < 0) {
        throw new IOException(listing + ": not a Delimited listing of 'hdfs oiv' with tabs (its"
            + " header names no Path, FileSize and Permission columns)");
      }
      int lineNumber = 1;
      for (String line; (line = in.readLine()) != null;) {
        lineNumber++;
        if (line.isEmpty()) {
          continue;
        }
        String[] fields = line.split("\t", -1);
        if (fields.length != columns.length) {
          throw new IOException(listing + ":" + lineNumber + ": " + fields.length
              + " fields where the header names " + columns.length);
        }
        if (fields[permissionColumn].startsWith("d")) {
          continue;
        }
        long size;
        try {
          size = Long.parseLong(fields[sizeColumn]);
        } catch (NumberFormatException e) {
          throw new IOException(listing + ":" + lineNumber + ": file size '" + fields[sizeColumn]
              + "' is not a number", e);
        }
        String path = fields[pathColumn];
        int slash = path.lastIndexOf('/');
        byDirectory.computeIfAbsent(slash <= 0 ? "/" : path.substring(0, slash),
            d -> new TreeMap<>()).put(path, size);
      }
    }
    Map<String, ListedFile> files = new HashMap<>();
    byDirectory.forEach((directory, sizes) -> {
      long blocks = 0;
      for (Map.Entry<String, Long> file : sizes.entrySet()) {
        long fileBlocks = (file.getValue() + blockBytes - 1) / blockBytes;
        files.put(file.getKey(), new ListedFile(directory, (int) blocks, (int) fileBlocks));
        blocks += fileBlocks;
      }
      if (blocks > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(directory + " holds " + blocks + " blocks, more than"
            + " a data set holds; give larger blocks");
      }
      directoryBlocks.put(directory, (int) blocks);
    });
    return files;
  }

  /** The blocks of the files read, ascending. */
  private static int[] part(Set<ListedFile> read) {
    List<ListedFile> files = new ArrayList<>(read);
    files.sort((a, b) -> Integer.compare(a.firstBlock(), b.firstBlock()));
    int[] part = new int[files.stream().mapToInt(ListedFile::blocks).sum()];
    int at = 0;
    for (ListedFile file : files) {
      for (int i = 0; i < file.blocks(); i++) {
        part[at++] = file.firstBlock() + i;
      }
    }
    return part;
  }

  /** The event's fields: tab-separated {@code name=value} pairs. */
  private static Map<String, String> fields(String event) {
    Map<String, String> fields = new HashMap<>();
    for (String field : event.split("\t")) {
      int eq = field.indexOf('=');
      if (eq > 0) {
        fields.put(field.substring(0, eq), field.substring(eq + 1));
      }
    }
    return fields;
  }

  /**
   * The application the caller context names, else the user: the short name that starts the
   * ugi field, however the user authenticated ({@code bob (auth:TOKEN)},
   * {@code bob@REALM (auth:KERBEROS)}, {@code bob (auth:PROXY) via hive (auth:KERBEROS)}).
   */
  private static String jobKey(Map<String, String> event) {
    String context = event.get("callerContext");
    if (context != null) {
      Matcher application = APPLICATION.matcher(context);
      if (application.find()) {
        return "application_" + application.group(1) + "_" + application.group(2);
      }
    }
    return "user " + USER.matcher(event.getOrDefault("ugi", "")).replaceFirst("");
  }

  /** Whether a name on the path starts with '.' or '_', as Hadoop's input formats skip. */
  static boolean isHidden(String path) {
    for (String name : path.split("/")) {
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The event's time in milliseconds, from the line's ISO8601 stamp (log4j's, with a space or a
   * 'T' between date and time), in this machine's time zone: a gap across a change of summer
   * time stays what it was.
   */
  private static long time(Path file, int lineNumber, String line) throws IOException {
    try {
      StringBuilder stamp = new StringBuilder(line.substring(0,
          Math.min(line.length(), LOG4J_TIME_LENGTH)));
      if (stamp.length() > DATE_LENGTH && stamp.charAt(DATE_LENGTH) == 'T') {
        stamp.setCharAt(DATE_LENGTH, ' ');
      }
      return LocalDateTime.parse(stamp, LOG4J_TIME).atZone(ZoneId.systemDefault()).toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IOException(file + ":" + lineNumber + ": no time such as 2026-12-07 16:12:00,123"
          + " at the start of the line (the audit logger's layout is '%d{ISO8601} %p %c{2}: "
          + "%m%n')", e);
    }
  }

  /**
   * Undoes the escaping the NameNode applies to paths it logs (Java string escapes: a backslash,
   * quote or control character follows a backslash; a non-ASCII character is a backslash, 'u'
   * and four hex digits).
   */
  static String unescapeJava(String escaped) {
    if (escaped.indexOf('\\') < 0) {
      return escaped;
    }
    StringBuilder path = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '\\' || i + 1 == escaped.length()) {
        path.append(c);
        continue;
      }
      char next = escaped.charAt(++i);
      switch (next) {
        case 't' -> path.append('\t');
        case 'n' -> path.append('\n');
        case 'r' -> path.append('\r');
        case 'b' -> path.append('\b');
        case 'f' -> path.append('\f');
        case 'u' -> {
          String hex = escaped.substring(i + 1, Math.min(escaped.length(), i + 5));
          if (hex.length() == 4 && hex.chars().allMatch(h -> Character.digit(h, 16) >= 0)) {
            path.append((char) Integer.parseInt(hex, 16));
            i += 4;
          } else {
            path.append("\\u");
          }
        }
        default -> path.append(next);
      }
    }
    return path.toString();
  }
}
