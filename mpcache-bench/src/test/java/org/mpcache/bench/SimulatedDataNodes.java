package org.mpcache.bench;

import java.io.IOException;
import java.util.Arrays;

import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * DataNodes that exist only as the NameNode knows them, as {@code NNThroughputBenchmark}'s
 * {@code TinyDatanode}s do: registered through the NameNode's RPC server object (no RPC), with one
 * storage, a first block report and one heartbeat each, all at 127.0.0.1 (the address their
 * slaves' calls come from, which the master checks) on ports of their own. They report the
 * replicas the NameNode places on them as received, and keep which blocks each holds.
 */
final class SimulatedDataNodes {
  /** Transfer ports from here on, one per node (nothing listens on them). */
  private static final int FIRST_PORT = 30_000;
  private static final long CAPACITY_BYTES = 1L << 40;

  private final NamenodeProtocols nameNode;
  private final String blockPoolId;
  private final DatanodeRegistration[] registrations;
  private final DatanodeStorage[] storages;
  private final long[][] replicas;
  private final int[] replicaCounts;

  private SimulatedDataNodes(NamenodeProtocols nameNode, int count) throws IOException {
    this.nameNode = nameNode;
    NamespaceInfo namespace = nameNode.versionRequest();
    this.blockPoolId = namespace.getBlockPoolID();
    this.registrations = new DatanodeRegistration[count];
    this.storages = new DatanodeStorage[count];
    this.replicas = new long[count][16];
    this.replicaCounts = new int[count];
    for (int node = 0; node < count; node++) {
      DatanodeID id = new DatanodeID("127.0.0.1", "slave-" + node, DataNode.generateUuid(),
          FIRST_PORT + node, 0, 0, 0);
      registrations[node] = nameNode.registerDatanode(new DatanodeRegistration(id,
          new DataStorage(namespace), new ExportedBlockKeys(), VersionInfo.getVersion()));
      registrations[node].setNamespaceInfo(namespace);
      storages[node] = new DatanodeStorage(DatanodeStorage.generateUuid());
      nameNode.blockReport(registrations[node], blockPoolId, new StorageBlockReport[] {
          new StorageBlockReport(storages[node], BlockListAsLongs.EMPTY)},
          new BlockReportContext(1, 0, System.nanoTime(), 0L));
      nameNode.sendHeartbeat(registrations[node], new StorageReport[] {new StorageReport(
          storages[node], false, CAPACITY_BYTES, 0, CAPACITY_BYTES, 0, 0)}, 0, 0, 0, 0, 0, null,
          true, SlowPeerReports.EMPTY_REPORT, SlowDiskReports.EMPTY_REPORT);
    }
  }

  /** Registers {@code count} DataNodes with the NameNode. */
  static SimulatedDataNodes register(NamenodeProtocols nameNode, int count) throws IOException {
    return new SimulatedDataNodes(nameNode, count);
  }

  int count() {
    return registrations.length;
  }

  String uuid(int node) {
    return registrations[node].getDatanodeUuid();
  }

  String hostname(int node) {
    return registrations[node].getHostName();
  }

  /** The blocks the node holds a replica of. */
  long[] replicas(int node) {
    return Arrays.copyOf(replicas[node], replicaCounts[node]);
  }

  /** Each DataNode the NameNode chose for the block reports it received its replica. */
  void received(LocatedBlock block) throws IOException {
    for (DatanodeInfo target : block.getLocations()) {
      int node = target.getXferPort() - FIRST_PORT;
      nameNode.blockReceivedAndDeleted(registrations[node], blockPoolId,
          new StorageReceivedDeletedBlocks[] {new StorageReceivedDeletedBlocks(storages[node],
              new ReceivedDeletedBlockInfo[] {new ReceivedDeletedBlockInfo(
                  block.getBlock().getLocalBlock(),
                  ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null)})});
      if (replicaCounts[node] == replicas[node].length) {
        replicas[node] = Arrays.copyOf(replicas[node], 2 * replicas[node].length);
      }
      replicas[node][replicaCounts[node]++] = block.getBlock().getBlockId();
    }
  }
}
