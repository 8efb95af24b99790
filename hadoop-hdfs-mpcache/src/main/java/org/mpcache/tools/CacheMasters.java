package org.mpcache.tools;

import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.ToIntFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.StandbyException;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.mpcache.protocol.MpCacheMasterProtocol;

/**
 * The cache masters a verb asks, one per NameNode ({@code dfs.mpcache.master.address}, or with
 * NameNode HA its per-NameNode keys): the active one, or every one. Each call is bounded by the
 * verb's {@code -timeout}. Exit code 1 when no master is configured, 2 when its key is invalid.
 */
final class CacheMasters {
  /** A call on the active master; returns the exit code. */
  @FunctionalInterface
  interface ActiveCall {
    int on(InetSocketAddress address, MpCacheMasterProtocol master) throws IOException;
  }

  /** A call on one master that says what came of it. */
  @FunctionalInterface
  interface MasterCall {
    String on(MpCacheMasterProtocol master) throws IOException;
  }

  private final Configuration conf;
  private final int timeoutMillis;
  private final PrintStream out;
  private final PrintStream err;

  CacheMasters(Configuration conf, long timeoutMillis, PrintStream out, PrintStream err) {
    this.conf = conf;
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    this.out = out;
    this.err = err;
  }

  /**
   * Makes {@code call} on the active master: the first that neither is a standby nor is switched
   * off. Exit 1 when none answered, or the active one refused (no other would do better).
   */
  int askActive(ActiveCall call) {
    return withAddresses(addresses -> askActive(addresses, call));
  }

  /**
   * Makes {@code call} on every NameNode's master, active or standby, so that a failover keeps
   * what it did; prints each one's answer, and why for each that did not take it ({@code verb}:
   * "switched"). Exit 1 when one did not.
   */
  int askEvery(String verb, MasterCall call) {
    return withAddresses(addresses -> askEvery(addresses, verb, call));
  }

  private int withAddresses(ToIntFunction<List<InetSocketAddress>> ask) {
    List<InetSocketAddress> addresses;
    try {
      addresses = MasterLinkSettings.from(conf).masters();
    } catch (InvalidSettingException e) {
      err.println("mpcacheadmin: invalid setting " + e.getMessage());
      return 2;
    }
    if (addresses.isEmpty()) {
      err.println("mpcacheadmin: " + DFS_MPCACHE_MASTER_ADDRESS_KEY + " (or, with NameNode HA, "
          + DFS_MPCACHE_MASTER_ADDRESS_KEY + ".<nameservice>.<namenode id>) is not set: no cache"
          + " master to ask");
      return 1;
    }
    return ask.applyAsInt(addresses);
  }

  private int askActive(List<InetSocketAddress> addresses, ActiveCall call) {
    StringBuilder failures = new StringBuilder();
    for (InetSocketAddress address : addresses) {
      try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
          .connect(conf, address, timeoutMillis)) {
        return call.on(address, master);
      } catch (RemoteException e) {
        if (!StandbyException.class.getName().equals(e.getClassName())
            && !String.valueOf(e.getMessage()).contains(MpCacheMasterProtocol.SWITCHED_OFF)) {
          err.println("mpcacheadmin: mpCache master " + address + ": " + firstLine(e));
          return 1;
        }
        failures.append("\n  ").append(address).append(": ").append(firstLine(e));
      } catch (IOException e) {
        failures.append("\n  ").append(address).append(": ").append(firstLine(e));
      }
    }
    err.println("mpcacheadmin: no active cache master answered:" + failures);
    return 1;
  }

  private int askEvery(List<InetSocketAddress> addresses, String verb, MasterCall call) {
    int exit = 0;
    for (InetSocketAddress address : addresses) {
      try (MasterProtocolClientSideTranslatorPB master = MasterProtocolClientSideTranslatorPB
          .connect(conf, address, timeoutMillis)) {
        out.printf("mpCache master %s: %s%n", address, call.on(master));
      } catch (IOException e) {
        err.println("mpcacheadmin: mpCache master " + address + " was not " + verb + ": "
            + firstLine(e));
        exit = 1;
      }
    }
    return exit;
  }

  private static String firstLine(IOException e) {
    return e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
  }
}
