package org.mpcache.protocol;

import static org.apache.hadoop.ipc.internal.ShadedProtobufHelper.ipc;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.AdmitJobRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.FinishRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ForgetJobRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.RenewRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveRequestProto;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.ReserveResponseProto;

/**
 * A client of a node's slave on the localized-space channel: a task JVM's, or the NodeManager
 * relay's. Fails fast ({@link FailFastProxies}): a task that cannot reach the slave writes to its
 * HDD local dirs.
 */
public final class LocalizedSpaceClientSideTranslatorPB implements LocalizedSpaceProtocol,
    LocalizedRelayProtocol, Closeable {
  private final LocalizedSpaceProtocolPB proxy;

  private LocalizedSpaceClientSideTranslatorPB(LocalizedSpaceProtocolPB proxy) {
    this.proxy = proxy;
  }

  /** A client of the slave at {@code address}; calls give up after {@code timeoutMillis}. */
  public static LocalizedSpaceClientSideTranslatorPB connect(Configuration conf,
      InetSocketAddress address, int timeoutMillis) throws IOException {
    return new LocalizedSpaceClientSideTranslatorPB(
        FailFastProxies.connect(LocalizedSpaceProtocolPB.class, conf, address, timeoutMillis));
  }

  /**
   * A client that proves it is {@code identity} with {@code password}: a job's key
   * ({@link LocalizedChannelKeys}) or the relay secret.
   */
  public static LocalizedSpaceClientSideTranslatorPB connect(Configuration conf,
      InetSocketAddress address, int timeoutMillis, LocalizedTokenIdentifier identity,
      byte[] password) throws IOException {
    UserGroupInformation caller = identity.getUser();
    caller.addToken(new Token<>(identity.getBytes(), password, LocalizedTokenIdentifier.KIND,
        SecurityUtil.buildTokenService(address)));
    return new LocalizedSpaceClientSideTranslatorPB(FailFastProxies.connect(
        LocalizedSpaceProtocolPB.class, conf, address, timeoutMillis, caller));
  }

  @Override
  public Reservation reserve(String attemptId, long bytes) throws IOException {
    ReserveRequestProto request = ReserveRequestProto.newBuilder().setAttemptId(attemptId)
        .setBytes(bytes).build();
    ReserveResponseProto response = ipc(() -> proxy.reserve(null, request));
    return new Reservation(response.getGranted(), response.getLeaseMillis());
  }

  @Override
  public boolean renew(String attemptId) throws IOException {
    RenewRequestProto request = RenewRequestProto.newBuilder().setAttemptId(attemptId).build();
    return ipc(() -> proxy.renew(null, request)).getKnown();
  }

  @Override
  public void finish(String attemptId) throws IOException {
    FinishRequestProto request = FinishRequestProto.newBuilder().setAttemptId(attemptId).build();
    ipc(() -> proxy.finish(null, request));
  }

  @Override
  public void admitJob(String jobId, byte[] key) throws IOException {
    AdmitJobRequestProto request = AdmitJobRequestProto.newBuilder().setJobId(jobId)
        .setKey(ByteString.copyFrom(key)).build();
    ipc(() -> proxy.admitJob(null, request));
  }

  @Override
  public void forgetJob(String jobId) throws IOException {
    ForgetJobRequestProto request = ForgetJobRequestProto.newBuilder().setJobId(jobId).build();
    ipc(() -> proxy.forgetJob(null, request));
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
