package org.mpcache.protocol;

import static org.mpcache.protocol.ServedCalls.served;

import java.io.IOException;

import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.AdmitJobRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.AdmitJobResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.FinishRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.FinishResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ForgetJobRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ForgetJobResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.LocalizedSpaceProtocolService;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.RenewRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.RenewResponseProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveResponseProto;

/**
 * Serves {@link LocalizedSpaceProtocolPB} calls: a task's from a {@link LocalizedSpaceProtocol},
 * the relay's from a {@link LocalizedRelayProtocol}, each after its caller is checked.
 */
public final class LocalizedSpaceServerSideTranslatorPB implements LocalizedSpaceProtocolPB {
  private final LocalizedSpaceProtocol tuner;
  private final LocalizedRelayProtocol relay;
  private final CallerCheck callers;

  /** Whom the channel takes calls from; each method refuses a caller with the reason. */
  public interface CallerCheck {
    /** The caller may act for the task attempt. */
    void checkTask(String attemptId) throws IOException;

    /** The caller is the NodeManager's relay. */
    void checkRelay() throws IOException;
  }

  private LocalizedSpaceServerSideTranslatorPB(LocalizedSpaceProtocol tuner,
      LocalizedRelayProtocol relay, CallerCheck callers) {
    this.tuner = tuner;
    this.relay = relay;
    this.callers = callers;
  }

  /** The service to hand to {@code RPC.Builder#setInstance}. */
  public static BlockingService service(LocalizedSpaceProtocol tuner,
      LocalizedRelayProtocol relay, CallerCheck callers) {
    return LocalizedSpaceProtocolService.newReflectiveBlockingService(
        new LocalizedSpaceServerSideTranslatorPB(tuner, relay, callers));
  }

  @Override
  public ReserveResponseProto reserve(RpcController controller, ReserveRequestProto request)
      throws ServiceException {
    return served(() -> {
      callers.checkTask(request.getAttemptId());
      LocalizedSpaceProtocol.Reservation reservation =
          tuner.reserve(request.getAttemptId(), request.getBytes());
      return ReserveResponseProto.newBuilder().setGranted(reservation.granted())
          .setLeaseMillis(reservation.leaseMillis()).build();
    });
  }

  @Override
  public RenewResponseProto renew(RpcController controller, RenewRequestProto request)
      throws ServiceException {
    return served(() -> {
      callers.checkTask(request.getAttemptId());
      return RenewResponseProto.newBuilder().setKnown(tuner.renew(request.getAttemptId()))
          .build();
    });
  }

  @Override
  public FinishResponseProto finish(RpcController controller, FinishRequestProto request)
      throws ServiceException {
    return served(() -> {
      callers.checkTask(request.getAttemptId());
      tuner.finish(request.getAttemptId());
      return FinishResponseProto.getDefaultInstance();
    });
  }

  @Override
  public AdmitJobResponseProto admitJob(RpcController controller, AdmitJobRequestProto request)
      throws ServiceException {
    return served(() -> {
      callers.checkRelay();
      relay.admitJob(request.getJobId(), request.getKey().toByteArray());
      return AdmitJobResponseProto.getDefaultInstance();
    });
  }

  @Override
  public ForgetJobResponseProto forgetJob(RpcController controller,
      ForgetJobRequestProto request) throws ServiceException {
    return served(() -> {
      callers.checkRelay();
      relay.forgetJob(request.getJobId());
      return ForgetJobResponseProto.getDefaultInstance();
    });
  }
}
