package org.apache.hadoop.hdfs.server.datanode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.lang.reflect.Field;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.slave.CacheCounter;
import org.mpcache.slave.CacheTestCluster;

/**
 * Short-circuit readers that get file descriptors from the DataNode get the SSD copy's. Lives in
 * the DataNode's package to call {@code requestShortCircuitFdsForRead}, the entry point the
 * DataXceiver uses, so the cache sees the same call stack as in production.
 */
@Timeout(180)
class TestMpCacheShortCircuitFds {

  @Test
  void fileDescriptorsPassedToLocalReadersAreTheSsdCopys() throws Exception {
    try (CacheTestCluster cluster =
        CacheTestCluster.start("scr-fds", CacheTestCluster.conf(), 1, null)) {
      Path file = new Path("/scr");
      byte[] data = cluster.write(file, CacheTestCluster.BLOCK_SIZE, 1);
      cluster.read(file);
      cluster.waitCached(file);
      cluster.garbleHddReplicas(file);
      LocatedBlock block = cluster.blocks(file).get(0);
      DataNode dn = cluster.holder(block);
      allowFdPassingWithoutNativeCode(dn);
      long hits = cluster.counter(0, CacheCounter.HITS);

      FileInputStream[] fds = dn.requestShortCircuitFdsForRead(block.getBlock(), null, 1);
      try {
        byte[] read = new byte[data.length];
        IOUtils.readFully(fds[0], read, 0, read.length);
        assertArrayEquals(data, read);
        assertEquals(-1, fds[0].read());
        assertTrue(fds[1].getChannel().size() > BlockMetadataHeader.getHeaderSize());
        assertEquals(DataChecksumHeader.of(fds[1]), DataChecksumHeader.of(
            new FileInputStream(cluster.mini().getBlockFile(0, block.getBlock()).getPath()
                + "_" + block.getBlock().getGenerationStamp() + ".meta")));
      } finally {
        IOUtils.cleanupWithLogger(null, fds);
      }
      assertEquals(hits + 1, cluster.counter(0, CacheCounter.HITS));
    }
  }

  /**
   * Descriptor passing needs libhadoop's domain sockets, which the Maven artifacts do not ship;
   * the DataNode records why it is off. The passing itself is not under test, only which files
   * the dataset opens, so the recorded reason is cleared.
   */
  private static void allowFdPassingWithoutNativeCode(DataNode dn) throws Exception {
    Field reason = DataNode.class.getDeclaredField("fileDescriptorPassingDisabledReason");
    reason.setAccessible(true);
    reason.set(dn, null);
  }

  /** A meta file's header bytes, to compare two meta files. */
  private record DataChecksumHeader(String bytes) {
    static DataChecksumHeader of(FileInputStream in) throws java.io.IOException {
      try (in) {
        byte[] header = new byte[BlockMetadataHeader.getHeaderSize()];
        IOUtils.readFully(in, header, 0, header.length);
        return new DataChecksumHeader(java.util.Arrays.toString(header));
      }
    }
  }
}
