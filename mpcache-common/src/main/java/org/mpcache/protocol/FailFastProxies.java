package org.mpcache.protocol;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.io.retry.RetryPolicies;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Hadoop RPC proxies that fail fast (one connection attempt, a short call timeout): every caller
 * of mpCache's protocols has a fallback (decide locally, write to HDD) and must not wait.
 */
final class FailFastProxies {
  private FailFastProxies() {
  }

  static <T> T connect(Class<T> protocol, Configuration conf, InetSocketAddress address,
      int timeoutMillis) throws IOException {
    return connect(protocol, conf, address, timeoutMillis, UserGroupInformation.getCurrentUser());
  }

  /** A proxy whose calls go as {@code caller}, with the tokens it holds. */
  static <T> T connect(Class<T> protocol, Configuration conf, InetSocketAddress address,
      int timeoutMillis, UserGroupInformation caller) throws IOException {
    Configuration rpcConf = new Configuration(conf);
    rpcConf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, timeoutMillis);
    rpcConf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY,
        0);
    RPC.setProtocolEngine(rpcConf, protocol, ProtobufRpcEngine2.class);
    return RPC.getProtocolProxy(protocol, RPC.getProtocolVersion(protocol), address,
        caller, rpcConf, NetUtils.getDefaultSocketFactory(rpcConf),
        timeoutMillis, RetryPolicies.TRY_ONCE_THEN_FAIL).getProxy();
  }
}
