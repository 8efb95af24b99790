package org.mpcache.protocol;

import java.util.List;

import org.mpcache.protocol.proto.MpCacheMasterProtos.DataSetHistoryProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ControlResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.DataSetReportProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.NodeReportProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ReportResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.SlaveProofProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.UsageProto;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.Internal;

/** Conversions between the protocol's Java records and their protobuf messages. */
final class PBHelper {
  private PBHelper() {
  }

  static UsageProto toProto(SlaveUsage usage) {
    return UsageProto.newBuilder()
        .setCapacityBytes(usage.capacityBytes())
        .setInputBytes(usage.inputBytes())
        .setPoolBytes(usage.poolBytes())
        .setLocalizedBytes(usage.localizedBytes())
        .setHits(usage.hits())
        .setMisses(usage.misses())
        .setCachedBlocks(usage.cachedBlocks())
        .setState(usage.state())
        .setBytesFromSsd(usage.bytesFromSsd())
        .setBytesFromHdd(usage.bytesFromHdd())
        .build();
  }

  static SlaveUsage fromProto(UsageProto proto) {
    return new SlaveUsage(proto.getCapacityBytes(), proto.getInputBytes(), proto.getPoolBytes(),
        proto.getLocalizedBytes(), proto.getHits(), proto.getMisses(), proto.getCachedBlocks(),
        proto.getState(), proto.getBytesFromSsd(), proto.getBytesFromHdd());
  }

  static List<SlaveProofProto> toProto(List<SlaveProof> proofs) {
    return proofs.stream().map(proof -> SlaveProofProto.newBuilder()
        .setIdentifier(ByteString.copyFrom(proof.identifier()))
        .setPassword(ByteString.copyFrom(proof.password())).build()).toList();
  }

  static List<SlaveProof> proofs(List<SlaveProofProto> protos) {
    return protos.stream().map(proto -> new SlaveProof(proto.getIdentifier().toByteArray(),
        proto.getPassword().toByteArray())).toList();
  }

  static long[] longs(List<Long> values) {
    return values instanceof Internal.LongList list ? toArray(list)
        : values.stream().mapToLong(Long::longValue).toArray();
  }

  private static long[] toArray(Internal.LongList list) {
    long[] array = new long[list.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = list.getLong(i);
    }
    return array;
  }

  static Iterable<Long> boxed(long[] values) {
    return () -> java.util.Arrays.stream(values).iterator();
  }

  static ReportResponseProto toProto(MasterReport report) {
    ReportResponseProto.Builder builder = ReportResponseProto.newBuilder()
        .setState(report.state()).setPolicy(report.policy());
    for (MasterReport.NodeReport node : report.nodes()) {
      builder.addNodes(NodeReportProto.newBuilder()
          .setDatanodeUuid(node.datanodeUuid())
          .setHostname(node.hostname())
          .setUsage(toProto(node.usage()))
          .setLastHeartbeatMillisAgo(node.lastHeartbeatMillisAgo())
          .setPendingEvictions(node.pendingEvictions()));
    }
    for (MasterReport.DataSetReport dataSet : report.dataSets()) {
      DataSetReportProto.Builder proto = DataSetReportProto.newBuilder()
          .setPath(dataSet.path())
          .setPriority(dataSet.priority())
          .setCachedBlocks(dataSet.cachedBlocks())
          .setTotalBlocks(dataSet.totalBlocks())
          .addAllHostnames(dataSet.hostnames());
      if (dataSet.pinned()) { // unset reads as false: data sets nobody steers cost no bytes
        proto.setPinned(true);
      }
      if (dataSet.ttlMillis() > 0) {
        proto.setTtlMillis(dataSet.ttlMillis());
      }
      builder.addDataSets(proto);
    }
    for (MasterReport.DataSetHistory seen : report.history()) {
      builder.addHistory(DataSetHistoryProto.newBuilder()
          .setPath(seen.path())
          .setBlocks(seen.blocks())
          .setAccesses(seen.accesses())
          .setLastAccessMillisAgo(seen.lastAccessMillisAgo()));
    }
    return builder.build();
  }

  static ControlResponseProto toProto(ControlAnswer answer) {
    ControlResponseProto.Builder proto = ControlResponseProto.newBuilder()
        .setDataSet(answer.dataSet())
        .setPinned(answer.pinned())
        .setTtlMillis(answer.ttlMillis())
        .setCachedBlocks(answer.cachedBlocks())
        .setTotalBlocks(answer.totalBlocks());
    // Written only when set, so that an answer without a load reads as before on the wire.
    if (answer.loadingBlocks() > 0) {
      proto.setLoadingBlocks(answer.loadingBlocks());
    }
    if (answer.refusedBlocks() > 0) {
      proto.setRefusedBlocks(answer.refusedBlocks());
    }
    return proto.build();
  }

  static ControlAnswer fromProto(ControlResponseProto proto) {
    return new ControlAnswer(proto.getDataSet(), proto.getPinned(), proto.getTtlMillis(),
        proto.getCachedBlocks(), proto.getTotalBlocks(), proto.getLoadingBlocks(),
        proto.getRefusedBlocks());
  }

  static MasterReport fromProto(ReportResponseProto proto) {
    return new MasterReport(proto.getState(), proto.getPolicy(),
        proto.getNodesList().stream().map(node -> new MasterReport.NodeReport(
            node.getDatanodeUuid(), node.getHostname(), fromProto(node.getUsage()),
            node.getLastHeartbeatMillisAgo(), node.getPendingEvictions())).toList(),
        proto.getDataSetsList().stream().map(dataSet -> new MasterReport.DataSetReport(
            dataSet.getPath(), dataSet.getPriority(), dataSet.getCachedBlocks(),
            dataSet.getTotalBlocks(), List.copyOf(dataSet.getHostnamesList()),
            dataSet.getPinned(), dataSet.getTtlMillis())).toList(),
        proto.getHistoryList().stream().map(seen -> new MasterReport.DataSetHistory(
            seen.getPath(), seen.getBlocks(), seen.getAccesses(),
            seen.getLastAccessMillisAgo())).toList());
  }
}
