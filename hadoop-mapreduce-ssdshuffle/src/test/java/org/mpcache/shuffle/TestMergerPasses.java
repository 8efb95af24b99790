package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.util.Progress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's Merger asks the allocator the hooks give it for the files of its intermediate
 * passes. Fails, naming the internal, should Merger keep its allocator otherwise.
 */
class TestMergerPasses {
  private final File work = GenericTestUtils.getTestDir("merger-passes");

  @AfterEach
  void restoreHadoopsAllocator() {
    MergerPasses.placeBy(new LocalDirAllocator(MRConfig.LOCAL_DIR));
  }

  @Test
  void aMergeOfMoreSegmentsThanItsFactorWritesItsPassesWhereTheHooksPlaceThem()
      throws IOException {
    FileUtil.fullyDelete(work);
    Configuration conf = new Configuration();
    FileSystem local = FileSystem.getLocal(conf).getRaw();
    Path[] spills = new Path[3];
    for (int s = 0; s < spills.length; s++) {
      spills[s] = new Path(work.getAbsolutePath(), "spill" + s);
      try (FSDataOutputStream out = local.create(spills[s])) {
        IFile.Writer<IntWritable, IntWritable> writer = new IFile.Writer<>(conf, out,
            IntWritable.class, IntWritable.class, null, null);
        for (int key = s; key < 30; key += spills.length) {
          writer.append(new IntWritable(key), new IntWritable(key));
        }
        writer.close();
      }
    }
    List<String> asked = new ArrayList<>();
    File passes = new File(work, "passes");
    assertTrue(MergerPasses.placeBy(new LocalDirAllocator(MRConfig.LOCAL_DIR) {
      @Override
      public Path getLocalPathForWrite(String path, long size, Configuration ignored,
          boolean checkWrite) {
        asked.add(path);
        return new Path(passes.getAbsolutePath(), path);
      }
    }), "Merger's allocator could not be set: " + Merger.class.getName() + "."
        + MergerPasses.FIELD);

    RawKeyValueIterator merged = Merger.merge(conf, local, IntWritable.class,
        IntWritable.class, null, spills, false, 2, new Path("attempt_1_0001_m_000000_0"),
        WritableComparator.get(IntWritable.class), () -> { }, null, null, new Progress());
    int records = 0;
    while (merged.next()) {
      records++;
    }
    merged.close();
    assertEquals(30, records);
    assertEquals(List.of("attempt_1_0001_m_000000_0/intermediate.1"), asked,
        "the merge pass was placed by another allocator than the hooks'");
  }
}
