package org.mpcache.puma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;

/** The MapReduce generator writes what the local generator writes, one map per data set. */
class TestDataSetGenerator {
  private static final long FILE_BYTES = 256 << 10;

  @Test
  void theJobWritesTheLocalGeneratorsBytes() throws Exception {
    Path root = LocalData.freshDir("data-set-generator");
    List<DataSetGenerator.Spec> specs = List.of(
        new DataSetGenerator.Spec(InputSource.WIKIPEDIA, new Path(root, "job/wikipedia"),
            700 << 10, 11, FILE_BYTES, List.of(), 0),
        new DataSetGenerator.Spec(InputSource.NETFLIX, new Path(root, "job/netflix"), 300 << 10,
            12, FILE_BYTES, List.of(), 0));
    Job job = DataSetGenerator.createJob(LocalData.localConf(), new Path(root, "work"), specs);
    assertTrue(job.waitForCompletion(false), job.getStatus().getFailureInfo());
    assertEquals(2, job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
    for (DataSetGenerator.Spec spec : specs) {
      Path local = new Path(root, "local/" + spec.source().dirName());
      spec.source().generate(LocalData.fs(), local, spec.bytes(), spec.seed(), FILE_BYTES);
      FileStatus[] written = parts(spec.dir());
      FileStatus[] expected = parts(local);
      assertEquals(InputSource.files(spec.bytes(), FILE_BYTES), written.length);
      assertEquals(expected.length, written.length);
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i].getPath().getName(), written[i].getPath().getName());
        assertArrayEquals(LocalData.bytes(expected[i].getPath()),
            LocalData.bytes(written[i].getPath()), written[i].getPath().toString());
      }
    }
  }

  @Test
  void aPlanLineGivesBackItsSpecAndFilesGoToTheNodesInTurn() {
    DataSetGenerator.Spec spec = new DataSetGenerator.Spec(InputSource.PUMA_III,
        new Path("hdfs://nn:8020/bench/inputs/puma-iii/k2"), 44 << 20, 2004, 8 << 20,
        List.of("10.0.0.1:9866", "10.0.0.2:9866", "10.0.0.3:9866"), 2);
    DataSetGenerator.Spec parsed = DataSetGenerator.Spec.parse(spec.line());
    assertEquals(spec, parsed);
    assertEquals("10.0.0.3", parsed.favoredNode(0).getHostString());
    assertEquals("10.0.0.1", parsed.favoredNode(1).getHostString());
    assertEquals(9866, parsed.favoredNode(4).getPort());
    assertNull(new DataSetGenerator.Spec(InputSource.NETFLIX, new Path("/x"), 1, 1, 1,
        List.of(), 0).favoredNode(3));
  }

  @Test
  void eachFileFitsInOneBlock() {
    long block = DataSetGenerator.blockBytes(8 << 20);
    assertTrue(block > 8 << 20, block + " bytes");
    assertEquals(0, block % 512, "a multiple of the checksum chunk");
  }

  private static FileStatus[] parts(Path dir) throws IOException {
    FileStatus[] files = LocalData.fs().listStatus(dir,
        path -> path.getName().startsWith("part-"));
    Arrays.sort(files);
    return files;
  }
}
