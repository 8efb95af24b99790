package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.util.RwLockMode;
import org.junit.jupiter.api.Test;
import org.mpcache.master.Namespace.DataSetRef;

/** The master's reach into the namesystem (the cluster tests cover what it finds). */
class TestNameNodeNamespace {
  @Test
  void theNamesystemsReadLockIsLetGoBetweenBatchesOfBlocks() {
    FSNamesystem namesystem = mock(FSNamesystem.class);
    when(namesystem.getBlockManager()).thenReturn(mock(BlockManager.class));
    NameNodeNamespace namespace =
        new NameNodeNamespace(namesystem, false, () -> new CachedPaths(List.of(), List.of()),
            1 << 20);

    DataSetRef[] refs =
        namespace.dataSetsOf(new long[2 * NameNodeNamespace.BLOCKS_PER_LOCK + 1]);

    assertEquals(2 * NameNodeNamespace.BLOCKS_PER_LOCK + 1, refs.length);
    assertTrue(Arrays.stream(refs).allMatch(Objects::isNull), "no such blocks");
    verify(namesystem, times(3)).readLock(RwLockMode.GLOBAL);
    verify(namesystem, times(3)).readUnlock(RwLockMode.GLOBAL, "mpCacheDataSets");
  }
}
