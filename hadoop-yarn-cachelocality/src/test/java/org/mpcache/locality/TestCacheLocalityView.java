package org.mpcache.locality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.Test;
import org.mpcache.conf.MpCacheConfigKeys;

class TestCacheLocalityView {
  /** Three replicas on h1, h2, h3 (DataNodes u1, u2, u3). */
  private static final BlockLocation THREE = new BlockLocation(
      new String[] {"10.0.0.1:9866", "10.0.0.2:9866", "10.0.0.3:9866"},
      new String[] {"h1", "h2", "h3"}, new String[0],
      new String[] {"/r1/10.0.0.1:9866", "/r1/10.0.0.2:9866", "/r2/10.0.0.3:9866"},
      new String[] {"s1", "s2", "s3"},
      new StorageType[] {StorageType.DISK, StorageType.DISK, StorageType.DISK}, 0, 100, false);
  private static final List<String> NODES = List.of("u1", "u2", "u3");

  private static BlockLocation view(Set<String> onSsd, LocalityMode mode) throws IOException {
    return CacheLocalityView.apply(THREE, NODES, onSsd, mode);
  }

  @Test
  void annotateKeepsTheHostsAndNamesTheSsdHolders() throws IOException {
    BlockLocation view = view(Set.of("u2"), LocalityMode.ANNOTATE);
    assertArrayEquals(new String[] {"h1", "h2", "h3"}, view.getHosts());
    assertArrayEquals(new String[] {"h2"}, view.getCachedHosts());
  }

  @Test
  void cacheFirstPutsTheSsdHolderFirstWithItsNameAndRack() throws IOException {
    BlockLocation view = view(Set.of("u3"), LocalityMode.CACHE_FIRST);
    assertArrayEquals(new String[] {"h3", "h1", "h2"}, view.getHosts());
    assertArrayEquals(new String[] {"10.0.0.3:9866", "10.0.0.1:9866", "10.0.0.2:9866"},
        view.getNames());
    assertEquals("/r2/10.0.0.3:9866", view.getTopologyPaths()[0]);
    assertEquals("s3", view.getStorageIds()[0]);
  }

  @Test
  void cacheOnlyKeepsTheSsdHoldersAlone() throws IOException {
    BlockLocation view = view(Set.of("u2", "elsewhere"), LocalityMode.CACHE_ONLY);
    assertArrayEquals(new String[] {"h2"}, view.getHosts());
    assertArrayEquals(new String[] {"10.0.0.2:9866"}, view.getNames());
    assertArrayEquals(new String[] {"/r1/10.0.0.2:9866"}, view.getTopologyPaths());
    assertArrayEquals(new StorageType[] {StorageType.DISK}, view.getStorageTypes());
    assertArrayEquals(new String[] {"h2"}, view.getCachedHosts());
    assertEquals(100, view.getLength());
  }

  @Test
  void aBlockOnNoSsdKeepsEveryReplica() throws IOException {
    BlockLocation view = view(Set.of(), LocalityMode.CACHE_ONLY);
    assertArrayEquals(THREE.getHosts(), view.getHosts());
    assertArrayEquals(THREE.getNames(), view.getNames());
    assertEquals(0, view.getCachedHosts().length);
  }

  @Test
  void aWrongModeIsRefusedNamingTheKey() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LocalityMode.of("ssd-please"));
    assertTrue(e.getMessage().contains(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_KEY), e.getMessage());
    assertEquals(LocalityMode.CACHE_FIRST, LocalityMode.of(" Cache-First "));
  }
}
