package org.mpcache.puma;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Reads the lines of a job's input or output directory, for the output checks. */
final class Lines {
  private Lines() {
  }

  /** The data files of {@code dir} (not "_SUCCESS" and the like), in name order. */
  static List<Path> files(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<Path> files = new ArrayList<>();
    FileStatus[] statuses = fs.listStatus(dir);
    Arrays.sort(statuses);
    for (FileStatus status : statuses) {
      String name = status.getPath().getName();
      if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(status.getPath());
      }
    }
    return files;
  }

  /** Calls {@code each} with every line of every data file of {@code dir}. */
  static void forEach(Configuration conf, Path dir, Consumer<String> each) throws IOException {
    for (Path file : files(conf, dir)) {
      forEachInFile(conf, file, each);
    }
  }

  static void forEachInFile(Configuration conf, Path file, Consumer<String> each)
      throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        file.getFileSystem(conf).open(file), StandardCharsets.UTF_8), 1 << 16)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        each.accept(line);
      }
    }
  }
}
