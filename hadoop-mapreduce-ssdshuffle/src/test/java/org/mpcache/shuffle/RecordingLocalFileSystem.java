package org.mpcache.shuffle;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system that notes the path of every file it creates or renames into
 * place, a line each, in the file {@link #LOG_KEY} names: set as a job's {@code fs.file.impl},
 * it tells where the job's tasks wrote, files they deleted since included.
 */
public class RecordingLocalFileSystem extends LocalFileSystem {
  static final String LOG_KEY = "mpcache.test.recorded.local.files";

  public RecordingLocalFileSystem() {
    super(new Recording());
  }

  private static final class Recording extends RawLocalFileSystem {
    private java.nio.file.Path log;

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
      super.initialize(uri, conf);
      String logFile = conf.get(LOG_KEY);
      log = logFile == null ? null : Paths.get(logFile);
    }

    @Override
    protected OutputStream createOutputStreamWithMode(Path f, boolean append,
        FsPermission permission) throws IOException {
      note(f);
      return super.createOutputStreamWithMode(f, append, permission);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
      note(dst);
      return super.rename(src, dst);
    }

    /** One short line appended at once: lines of several processes do not interleave. */
    private void note(Path file) throws IOException {
      if (log != null) {
        Files.write(log, (pathToFile(file).getAbsolutePath() + "\n")
            .getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
            StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      }
    }
  }
}
