package org.mpcache.protocol;

import static org.mpcache.protocol.ServedCalls.served;

import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.FinishRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.FinishResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.LocalizedSpaceProtocolService;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.RenewRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.RenewResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveResponseProto;

/** Serves {@link LocalizedSpaceProtocolPB} calls from a {@link LocalizedSpaceProtocol}. */
public final class LocalizedSpaceServerSideTranslatorPB implements LocalizedSpaceProtocolPB {
  private final LocalizedSpaceProtocol tuner;

  private LocalizedSpaceServerSideTranslatorPB(LocalizedSpaceProtocol tuner) {
    this.tuner = tuner;
  }

  /** The service to hand to {@code RPC.Builder#setInstance}. */
  public static BlockingService service(LocalizedSpaceProtocol tuner) {
    return LocalizedSpaceProtocolService.newReflectiveBlockingService(
        new LocalizedSpaceServerSideTranslatorPB(tuner));
  }

  @Override
  public ReserveResponseProto reserve(RpcController controller, ReserveRequestProto request)
      throws ServiceException {
    return served(() -> {
      LocalizedSpaceProtocol.Reservation reservation =
          tuner.reserve(request.getAttemptId(), request.getBytes());
      return ReserveResponseProto.newBuilder().setGranted(reservation.granted())
          .setLeaseMillis(reservation.leaseMillis()).build();
    });
  }

  @Override
  public RenewResponseProto renew(RpcController controller, RenewRequestProto request)
      throws ServiceException {
    return served(() -> RenewResponseProto.newBuilder()
        .setKnown(tuner.renew(request.getAttemptId())).build());
  }

  @Override
  public FinishResponseProto finish(RpcController controller, FinishRequestProto request)
      throws ServiceException {
    return served(() -> {
      tuner.finish(request.getAttemptId());
      return FinishResponseProto.getDefaultInstance();
    });
  }
}
