package org.mpcache.protocol;

import static org.mpcache.protocol.PBHelper.boxed;
import static org.mpcache.protocol.PBHelper.fromProto;
import static org.mpcache.protocol.PBHelper.longs;
import static org.mpcache.protocol.PBHelper.proofs;
import static org.mpcache.protocol.PBHelper.toProto;
import static org.mpcache.protocol.ServedCalls.served;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.protocol.proto.MpCacheMasterProtos.AdmissionRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.AdmissionResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.BlockHoldersProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.CachedOnRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.CachedOnResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ControlRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ControlResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.HeartbeatRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.HeartbeatResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.MpCacheMasterProtocolService;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RegisterRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RegisterResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ReportRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.ReportResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RefreshRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.RefreshResponseProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.SwitchRequestProto;
import org.mpcache.protocol.proto.MpCacheMasterProtos.SwitchResponseProto;

/** Serves {@link MpCacheMasterProtocolPB} calls from an {@link MpCacheMasterProtocol}. */
public final class MasterProtocolServerSideTranslatorPB implements MpCacheMasterProtocolPB {
  private final MpCacheMasterProtocol master;
  private final SlaveCheck slaveCheck;

  /** Refuses a slave's call that the DataNode it names did not make. */
  @FunctionalInterface
  public interface SlaveCheck {
    void check(String datanodeUuid, List<SlaveProof> proofs) throws IOException;
  }

  private MasterProtocolServerSideTranslatorPB(MpCacheMasterProtocol master,
      SlaveCheck slaveCheck) {
    this.master = master;
    this.slaveCheck = slaveCheck;
  }

  /**
   * The service to hand to {@code RPC.Builder#setInstance}; each slave call passes
   * {@code slaveCheck}, with the proofs it carries, before it reaches {@code master}.
   */
  public static BlockingService service(MpCacheMasterProtocol master, SlaveCheck slaveCheck) {
    return MpCacheMasterProtocolService.newReflectiveBlockingService(
        new MasterProtocolServerSideTranslatorPB(master, slaveCheck));
  }

  @Override
  public RegisterResponseProto register(RpcController controller, RegisterRequestProto request)
      throws ServiceException {
    return served(() -> {
      slaveCheck.check(request.getDatanodeUuid(), proofs(request.getProofsList()));
      Registration registration = master.register(request.getDatanodeUuid(),
          request.getHostname(), fromProto(request.getUsage()),
          longs(request.getCachedBlocksList()));
      return RegisterResponseProto.newBuilder()
          .setBlockPoolId(registration.blockPoolId())
          .setBlockSizeBytes(registration.blockSizeBytes())
          .build();
    });
  }

  @Override
  public HeartbeatResponseProto heartbeat(RpcController controller,
      HeartbeatRequestProto request) throws ServiceException {
    return served(() -> {
      slaveCheck.check(request.getDatanodeUuid(), proofs(request.getProofsList()));
      HeartbeatAnswer answer = master.heartbeat(request.getDatanodeUuid(),
          fromProto(request.getUsage()), longs(request.getHitsList()),
          longs(request.getMissesList()), longs(request.getCachedList()),
          longs(request.getRemovedList()));
      return HeartbeatResponseProto.newBuilder()
          .setReregister(answer.reregister())
          .addAllEvict(boxed(answer.evict()))
          .addAllLoad(boxed(answer.load()))
          .build();
    });
  }

  @Override
  public AdmissionResponseProto requestAdmission(RpcController controller,
      AdmissionRequestProto request) throws ServiceException {
    return served(() -> {
      slaveCheck.check(request.getDatanodeUuid(), proofs(request.getProofsList()));
      AdmissionAnswer answer = master.requestAdmission(request.getDatanodeUuid(),
          request.getBlockId(), request.getBytes(), longs(request.getHitsList()));
      return AdmissionResponseProto.newBuilder()
          .setVerdict(AdmissionResponseProto.Verdict.valueOf(answer.verdict().name()))
          .addAllEvict(boxed(answer.evict()))
          .build();
    });
  }

  @Override
  public ReportResponseProto report(RpcController controller, ReportRequestProto request)
      throws ServiceException {
    return served(() -> toProto(master.report()));
  }

  @Override
  public CachedOnResponseProto cachedOn(RpcController controller, CachedOnRequestProto request)
      throws ServiceException {
    return served(() -> {
      CachedOnResponseProto.Builder response = CachedOnResponseProto.newBuilder();
      for (List<String> holders : master.cachedOn(longs(request.getBlockIdsList()))) {
        response.addBlocks(BlockHoldersProto.newBuilder().addAllDatanodeUuids(holders));
      }
      return response.build();
    });
  }

  @Override
  public ControlResponseProto control(RpcController controller, ControlRequestProto request)
      throws ServiceException {
    return served(() -> toProto(master.control(
        MpCacheMasterProtocol.ControlOp.valueOf(request.getOp().name()), request.getPath(),
        request.getTtlMillis())));
  }

  @Override
  public SwitchResponseProto switchMaster(RpcController controller, SwitchRequestProto request)
      throws ServiceException {
    return served(() -> SwitchResponseProto.newBuilder()
        .setWasOn(master.switchMaster(request.getOn())).build());
  }

  @Override
  public RefreshResponseProto refresh(RpcController controller, RefreshRequestProto request)
      throws ServiceException {
    return served(() -> {
      RefreshAnswer answer = master.refresh();
      return RefreshResponseProto.newBuilder().addAllApplied(answer.applied())
          .addAllFreshMaster(answer.freshMaster()).addAllNeedRestart(answer.needRestart())
          .build();
    });
  }
}
