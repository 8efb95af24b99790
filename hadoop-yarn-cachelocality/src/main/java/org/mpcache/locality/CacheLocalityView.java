package org.mpcache.locality;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.StorageType;

/**
 * A block's location as schedulers should see it, given which of its replica nodes hold it on
 * SSD: pure, the file system brings the facts. Names, hosts, topology paths, storage ids and
 * types stay aligned (CombineFileInputFormat pairs hosts with topology paths by index).
 */
public final class CacheLocalityView {
  private CacheLocalityView() {
  }

  /**
   * @param location the block's location from HDFS
   * @param replicaNodes the DataNode UUID of each replica, in {@code location}'s order
   * @param onSsd UUIDs of the DataNodes holding the block on SSD
   */
  public static BlockLocation apply(BlockLocation location, List<String> replicaNodes,
      Set<String> onSsd, LocalityMode mode) throws IOException {
    String[] hosts = location.getHosts();
    List<Integer> cached = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (int i = 0; i < hosts.length; i++) {
      (i < replicaNodes.size() && onSsd.contains(replicaNodes.get(i)) ? cached : others).add(i);
    }
    List<Integer> order = switch (mode) {
      case ANNOTATE -> IntStream.range(0, hosts.length).boxed().toList();
      case CACHE_FIRST -> concat(cached, others);
      case CACHE_ONLY -> cached.isEmpty() ? others : cached;
    };
    String[] cachedHosts = cached.stream().map(i -> hosts[i]).toArray(String[]::new);
    return new BlockLocation(pick(location.getNames(), order, String[]::new),
        pick(hosts, order, String[]::new), cachedHosts,
        pick(location.getTopologyPaths(), order, String[]::new),
        pick(location.getStorageIds(), order, String[]::new),
        pick(location.getStorageTypes(), order, StorageType[]::new), location.getOffset(),
        location.getLength(), location.isCorrupt());
  }

  private static List<Integer> concat(List<Integer> first, List<Integer> then) {
    List<Integer> both = new ArrayList<>(first);
    both.addAll(then);
    return both;
  }

  /** The entries at {@code order}; an array that is not one per replica is left as it is. */
  private static <T> T[] pick(T[] values, List<Integer> order, IntFunction<T[]> array) {
    if (values == null || order.stream().anyMatch(i -> i >= values.length)) {
      return values;
    }
    return order.stream().map(i -> values[i]).toArray(array);
  }
}
