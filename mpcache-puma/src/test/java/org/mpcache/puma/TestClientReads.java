package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * What the client reads of a job's input while it creates the job, before any task runs: a cache
 * beside HDFS sees those reads, and the harness's simulation of a stream reads them too.
 */
class TestClientReads {
  /** The local file system, recording each file opened through it. */
  public static class OpenRecordingFileSystem extends LocalFileSystem {
    static final Set<Path> OPENED = ConcurrentHashMap.newKeySet();

    @Override
    public FSDataInputStream open(Path file, int bufferSize) throws IOException {
      OPENED.add(file);
      return super.open(file, bufferSize);
    }
  }

  @Test
  void eachBenchmarkReadsAsManyInputFilesAsItSays() throws Exception {
    Configuration conf = LocalData.localConf();
    conf.setClass("fs.file.impl", OpenRecordingFileSystem.class, FileSystem.class);
    conf.setBoolean("fs.file.impl.disable.cache", true);
    Path root = LocalData.freshDir("client-reads");
    for (String name : List.of("tera-sort", "grep")) {
      PumaBenchmark benchmark = PumaBenchmarks.byName(name);
      for (int files : new int[] {3, 12}) {
        Path input = new Path(root, name + "-" + files);
        benchmark.source().generate(LocalData.fs(), input, files * 4096L, 1, 4096);
        OpenRecordingFileSystem.OPENED.clear();
        benchmark.createJob(conf, input, new Path(root, "out-" + name + "-" + files));
        Set<String> opened = OpenRecordingFileSystem.OPENED.stream().map(Path::getName)
            .filter(file -> file.startsWith("part-")).collect(Collectors.toSet());
        assertEquals(benchmark.splitsReadByClient(files), opened.size(),
            name + " over " + files + " files opened " + opened);
      }
    }
    assertEquals(10, PumaBenchmarks.byName("tera-sort").splitsReadByClient(12),
        "TeraSort's sampler reads ten splits at most");
  }
}
