package org.mpcache.locality;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;

/**
 * HDFS's client with replicas ordered for reading by {@link ReplicaOrder}: a reader off the block's
 * nodes reads an SSD copy when there is one. Reads, retries and failover to the next replica are
 * stock; only the order they walk changes. Erasure-coded blocks keep their order (their indices
 * follow it).
 */
public class MpCacheDFSClient extends DFSClient {
  private final SsdCopies ssdCopies;
  private final String localHost;

  public MpCacheDFSClient(URI uri, Configuration conf, FileSystem.Statistics statistics,
      SsdCopies ssdCopies, String localHost) throws IOException {
    super(uri, conf, statistics);
    this.ssdCopies = ssdCopies;
    this.localHost = localHost;
  }

  public SsdCopies ssdCopies() {
    return ssdCopies;
  }

  /** Every read (open, refetch, block locations) asks here. */
  @Override
  public LocatedBlocks getLocatedBlocks(String src, long start, long length) throws IOException {
    LocatedBlocks located = super.getLocatedBlocks(src, start, length);
    if (located != null) {
      inReplicaOrder(located.getLocatedBlocks());
    }
    return located;
  }

  private void inReplicaOrder(List<LocatedBlock> blocks) {
    List<LocatedBlock> replicated = blocks.stream()
        .filter(b -> !(b instanceof LocatedStripedBlock) && b.getLocations().length > 1)
        .toList();
    if (replicated.isEmpty()) {
      return;
    }
    List<List<String>> onSsd = ssdCopies.holders(
        replicated.stream().mapToLong(b -> b.getBlock().getBlockId()).toArray());
    if (onSsd == null) {
      return;
    }
    for (int k = 0; k < replicated.size(); k++) {
      LocatedBlock block = replicated.get(k);
      DatanodeInfoWithStorage[] replicas = block.getLocations();
      List<Integer> order = ReplicaOrder.of(
          Arrays.stream(replicas).map(DatanodeInfo::getHostName).toList(),
          Arrays.stream(replicas).map(DatanodeInfo::getDatanodeUuid).toList(), localHost,
          new HashSet<>(onSsd.get(k)));
      List<DatanodeInfoWithStorage> ordered = new ArrayList<>();
      order.forEach(i -> ordered.add(replicas[i]));
      // In place, as the NameNode sorts them; the storage ids and types follow the replicas.
      ordered.toArray(replicas);
      block.updateCachedStorageInfo();
    }
  }
}
