package org.mpcache.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Reads the lines of a job's input or output directory, for the output checks. */
final class Lines {
  /** What a check does with each line; may fail the check. */
  interface LineConsumer {
    void accept(String line) throws IOException;
  }

  private Lines() {
  }

  /** The data files of {@code dir} (not "_SUCCESS", ".crc" and the like), in name order. */
  static List<Path> files(Configuration conf, Path dir) throws IOException {
    FileStatus[] statuses = dir.getFileSystem(conf).listStatus(dir);
    Arrays.sort(statuses);
    List<Path> files = new ArrayList<>();
    for (FileStatus status : statuses) {
      String name = status.getPath().getName();
      if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(status.getPath());
      }
    }
    return files;
  }

  /** Calls {@code each} with every line of every data file of {@code dir}, in file order. */
  static void forEach(Configuration conf, Path dir, LineConsumer each) throws IOException {
    for (Path file : files(conf, dir)) {
      forEachInFile(conf, file, each);
    }
  }

  /** Calls {@code each} with every line of {@code file} (ends: LF or CR LF, not included). */
  static void forEachInFile(Configuration conf, Path file, LineConsumer each)
      throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        file.getFileSystem(conf).open(file), StandardCharsets.UTF_8), 1 << 16)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        each.accept(line);
      }
    }
  }

  /** The digest of all lines of {@code dir}. */
  static MultisetDigest digest(Configuration conf, Path dir) throws IOException {
    MultisetDigest digest = new MultisetDigest();
    forEach(conf, dir, digest::add);
    return digest;
  }

  /** The text before the first tab. */
  static String key(String line) {
    int tab = line.indexOf('\t');
    return tab < 0 ? line : line.substring(0, tab);
  }

  /** The text after the first tab. */
  static String value(String line) {
    return line.substring(line.indexOf('\t') + 1);
  }
}
