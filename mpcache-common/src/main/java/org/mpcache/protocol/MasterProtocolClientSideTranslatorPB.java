package org.mpcache.protocol;

import static org.apache.hadoop.ipc.internal.ShadedProtobufHelper.ipc;
import static org.mpcache.protocol.PBHelper.boxed;
import static org.mpcache.protocol.PBHelper.fromProto;
import static org.mpcache.protocol.PBHelper.longs;
import static org.mpcache.protocol.PBHelper.toProto;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.mpcache.protocol.proto.MpCacheMasterProtos.AdmissionRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.AdmissionResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.BlockHoldersProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.CachedOnRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ControlRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.HeartbeatRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.HeartbeatResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RegisterRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RegisterResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ReportRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RefreshRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RefreshResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.SwitchRequestProto;

/**
 * Calls the master over Hadoop RPC. Fails fast ({@link FailFastProxies}): slaves call it on the
 * read path and fall back to their own decisions when it fails.
 */
public final class MasterProtocolClientSideTranslatorPB implements MpCacheMasterProtocol,
    Closeable {
  private final MpCacheMasterProtocolPB proxy;
  /** What a slave's calls carry to prove which DataNode makes them. */
  private final Supplier<List<SlaveProof>> proofs;

  /** Over {@code proxy}; tests hand it a transport of their own (TestWireRecordings). */
  MasterProtocolClientSideTranslatorPB(MpCacheMasterProtocolPB proxy,
      Supplier<List<SlaveProof>> proofs) {
    this.proxy = proxy;
    this.proofs = proofs;
  }

  /** A client of the master at {@code address}; calls give up after {@code timeoutMillis}. */
  public static MasterProtocolClientSideTranslatorPB connect(Configuration conf,
      InetSocketAddress address, int timeoutMillis) throws IOException {
    return connect(conf, address, timeoutMillis, List::of);
  }

  /** As above, for a slave whose calls carry {@code proofs} of its DataNode. */
  public static MasterProtocolClientSideTranslatorPB connect(Configuration conf,
      InetSocketAddress address, int timeoutMillis, Supplier<List<SlaveProof>> proofs)
      throws IOException {
    MasterTokens.cloneForMaster(conf, address);
    return new MasterProtocolClientSideTranslatorPB(
        FailFastProxies.connect(MpCacheMasterProtocolPB.class, conf, address, timeoutMillis),
        proofs);
  }

  @Override
  public Registration register(String datanodeUuid, String hostname, SlaveUsage usage,
      long[] cachedBlocks) throws IOException {
    RegisterRequestProto request = RegisterRequestProto.newBuilder()
        .setDatanodeUuid(datanodeUuid)
        .setHostname(hostname)
        .setUsage(toProto(usage))
        .addAllCachedBlocks(boxed(cachedBlocks))
        .addAllProofs(toProto(proofs.get()))
        .build();
    RegisterResponseProto response = ipc(() -> proxy.register(null, request));
    return new Registration(response.getBlockPoolId(), response.getBlockSizeBytes());
  }

  @Override
  public HeartbeatAnswer heartbeat(String datanodeUuid, SlaveUsage usage, long[] hits,
      long[] misses, long[] cached, long[] removed) throws IOException {
    HeartbeatRequestProto request = HeartbeatRequestProto.newBuilder()
        .setDatanodeUuid(datanodeUuid)
        .setUsage(toProto(usage))
        .addAllHits(boxed(hits))
        .addAllMisses(boxed(misses))
        .addAllCached(boxed(cached))
        .addAllRemoved(boxed(removed))
        .addAllProofs(toProto(proofs.get()))
        .build();
    HeartbeatResponseProto response = ipc(() -> proxy.heartbeat(null, request));
    return new HeartbeatAnswer(response.getReregister(), longs(response.getEvictList()),
        longs(response.getLoadList()));
  }

  @Override
  public AdmissionAnswer requestAdmission(String datanodeUuid, long blockId, long bytes,
      long[] hits) throws IOException {
    AdmissionRequestProto request = AdmissionRequestProto.newBuilder()
        .setDatanodeUuid(datanodeUuid).setBlockId(blockId).setBytes(bytes)
        .addAllHits(boxed(hits)).addAllProofs(toProto(proofs.get())).build();
    AdmissionResponseProto response = ipc(() -> proxy.requestAdmission(null, request));
    return new AdmissionAnswer(AdmissionAnswer.Verdict.valueOf(response.getVerdict().name()),
        longs(response.getEvictList()));
  }

  @Override
  public MasterReport report() throws IOException {
    return fromProto(ipc(() -> proxy.report(null, ReportRequestProto.getDefaultInstance())));
  }

  @Override
  public List<List<String>> cachedOn(long[] blockIds) throws IOException {
    List<List<String>> holders = new ArrayList<>(blockIds.length);
    for (int from = 0; from < blockIds.length; from += MAX_CACHED_ON_BLOCKS) {
      CachedOnRequestProto request = CachedOnRequestProto.newBuilder().addAllBlockIds(boxed(
          Arrays.copyOfRange(blockIds, from,
              Math.min(blockIds.length, from + MAX_CACHED_ON_BLOCKS)))).build();
      for (BlockHoldersProto block : ipc(() -> proxy.cachedOn(null, request)).getBlocksList()) {
        holders.add(List.copyOf(block.getDatanodeUuidsList()));
      }
    }
    return holders;
  }

  @Override
  public boolean switchMaster(boolean on) throws IOException {
    SwitchRequestProto request = SwitchRequestProto.newBuilder().setOn(on).build();
    return ipc(() -> proxy.switchMaster(null, request)).getWasOn();
  }

  @Override
  public ControlAnswer control(ControlOp op, String path, long ttlMillis) throws IOException {
    ControlRequestProto request = ControlRequestProto.newBuilder()
        .setOp(ControlRequestProto.Op.valueOf(op.name())).setPath(path).setTtlMillis(ttlMillis)
        .build();
    return fromProto(ipc(() -> proxy.control(null, request)));
  }

  @Override
  public RefreshAnswer refresh() throws IOException {
    RefreshResponseProto response =
        ipc(() -> proxy.refresh(null, RefreshRequestProto.getDefaultInstance()));
    return new RefreshAnswer(List.copyOf(response.getAppliedList()),
        List.copyOf(response.getFreshMasterList()), List.copyOf(response.getNeedRestartList()));
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
