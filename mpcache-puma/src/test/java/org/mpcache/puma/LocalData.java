package org.mpcache.puma;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

/** Files of the unit tests, on the local file system under {@code target/test-data}. */
final class LocalData {
  private LocalData() {
  }

  /** A configuration for the local file system and MapReduce's local job runner. */
  static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    // The client polls for the job's end every 5 s by default: most of a small job's time.
    conf.setInt("mapreduce.client.completion.pollinterval", 50);
    conf.set("hadoop.tmp.dir", new File(root(), "hadoop-tmp").getAbsolutePath());
    return conf;
  }

  /** A fresh, empty directory for {@code test}. */
  static Path freshDir(String test) throws IOException {
    File dir = new File(root(), test);
    FileUtil.fullyDelete(dir);
    if (!dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    return new Path(dir.toURI());
  }

  private static File root() {
    return new File(System.getProperty("test.build.data", "target/test-data")).getAbsoluteFile();
  }

  static FileSystem fs() throws IOException {
    return FileSystem.getLocal(localConf());
  }

  /** A job output directory of the given part files and {@code _SUCCESS}. */
  static Path output(Path root, String name, String... parts) throws IOException {
    Path dir = new Path(root, name);
    for (int i = 0; i < parts.length; i++) {
      write(new Path(dir, String.format("part-r-%05d", i)), parts[i]);
    }
    write(new Path(dir, "_SUCCESS"), "");
    return dir;
  }

  static void write(Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs().create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  static byte[] bytes(Path file) throws IOException {
    try (var in = fs().open(file)) {
      return in.readAllBytes();
    }
  }

  static String read(Path file) throws IOException {
    return new String(bytes(file), StandardCharsets.UTF_8);
  }
}
