package org.mpcache.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.SlaveProof;
import org.mpcache.tools.MpCacheAdmin;

/** Calls to a master as a given user, and runs of its admin tool, for the master's tests. */
public final class MasterCalls {
  private MasterCalls() {
  }

  /** One call of the master's protocol. */
  @FunctionalInterface
  interface Call<T> {
    T on(MpCacheMasterProtocol master) throws IOException;
  }

  /** Makes {@code call} as {@code user}, over a connection of its own. */
  static <T> T as(UserGroupInformation user, Configuration conf, InetSocketAddress master,
      Call<T> call) throws Exception {
    return as(user, conf, master, List.of(), call);
  }

  /** As above, a slave's call carrying {@code proofs}. */
  static <T> T as(UserGroupInformation user, Configuration conf, InetSocketAddress master,
      List<SlaveProof> proofs, Call<T> call) throws Exception {
    return user.doAs((PrivilegedExceptionAction<T>) () -> {
      try (MasterProtocolClientSideTranslatorPB client =
          MasterProtocolClientSideTranslatorPB.connect(conf, master, 10_000, () -> proofs)) {
        return call.on(client);
      }
    });
  }

  /** The master's refusal of type {@code type} that {@code e}, a failed call, carries. */
  static <E extends IOException> E refusal(Class<E> type, Exception e) {
    assertTrue(e instanceof RemoteException, e.toString());
    IOException cause = ((RemoteException) e).unwrapRemoteException(type);
    assertTrue(type.isInstance(cause), cause.toString());
    return type.cast(cause);
  }

  /** Runs {@code hdfs mpcacheadmin} with {@code args}, checks its exit code, returns its output. */
  public static String admin(Configuration conf, int expectedExit, String... args)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new MpCacheAdmin(conf, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    assertEquals(expectedExit, exit, err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
