package org.mpcache.conf;

import static org.mpcache.conf.ConfValues.addresses;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.net.NetUtils;

/**
 * Where the cache masters listen. Without NameNode HA: {@code dfs.mpcache.master.address}. With
 * HA, one key per NameNode as Hadoop suffixes its own ({@code dfs.namenode.rpc-address.<ns>.<nn>}):
 * {@code dfs.mpcache.master.address.<nameservice>.<namenode id>}, for the NameNodes of
 * {@code dfs.ha.namenodes.<nameservice>}; slaves and clients ask each, the active one answers.
 */
public final class MasterAddresses {
  private MasterAddresses() {
  }

  /** Every master a slave or client may ask; empty when none is configured. */
  public static List<InetSocketAddress> all(Configuration conf) throws InvalidSettingException {
    List<InetSocketAddress> perNameNode = new ArrayList<>();
    for (String suffix : nameNodeSuffixes(conf)) {
      perNameNode.addAll(addresses(conf, DFS_MPCACHE_MASTER_ADDRESS_KEY + "." + suffix));
    }
    return perNameNode.isEmpty() ? addresses(conf, DFS_MPCACHE_MASTER_ADDRESS_KEY) : perNameNode;
  }

  /**
   * The address of the master of the NameNode whose RPC server is at {@code rpcAddress}. With
   * per-NameNode keys, that NameNode is found by its RPC address among
   * {@code dfs.namenode.rpc-address.<ns>.<nn>}, not through {@code dfs.ha.namenode.id}: HA
   * clusters commonly leave the id unset (a NameNode then finds it by address), and two
   * NameNodes may share a host.
   */
  public static InetSocketAddress own(Configuration conf, InetSocketAddress rpcAddress)
      throws InvalidSettingException {
    List<String> suffixes = nameNodeSuffixes(conf);
    if (suffixes.stream()
        .noneMatch(suffix -> conf.get(DFS_MPCACHE_MASTER_ADDRESS_KEY + "." + suffix) != null)) {
      return single(conf, DFS_MPCACHE_MASTER_ADDRESS_KEY);
    }
    for (String suffix : suffixes) {
      String rpc = conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + suffix);
      if (rpc != null && sameEndpoint(NetUtils.createSocketAddr(rpc), rpcAddress)) {
        return single(conf, DFS_MPCACHE_MASTER_ADDRESS_KEY + "." + suffix);
      }
    }
    throw new InvalidSettingException(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + ".<nameservice>"
        + ".<namenode id>", "none of " + suffixes + " is this NameNode's RPC address "
        + NetUtils.getHostPortString(rpcAddress) + ": cannot tell which of "
        + DFS_MPCACHE_MASTER_ADDRESS_KEY
        + ".<nameservice>.<namenode id> is this NameNode's master");
  }

  private static InetSocketAddress single(Configuration conf, String key)
      throws InvalidSettingException {
    List<InetSocketAddress> addresses = addresses(conf, key);
    if (addresses.isEmpty()) {
      throw new InvalidSettingException(key,
          "not set; the master needs host:port to listen on (slaves connect to it too)");
    }
    if (addresses.size() > 1) {
      throw new InvalidSettingException(key, "lists " + addresses.size() + " addresses: give one"
          + " host:port (with NameNode HA, one per NameNode in " + DFS_MPCACHE_MASTER_ADDRESS_KEY
          + ".<nameservice>.<namenode id>)");
    }
    return addresses.get(0);
  }

  /** {@code <nameservice>.<namenode id>} of every HA NameNode configured. */
  private static List<String> nameNodeSuffixes(Configuration conf) {
    List<String> suffixes = new ArrayList<>();
    for (String nameservice : DFSUtilClient.getNameServiceIds(conf)) {
      for (String nameNode : DFSUtilClient.getNameNodeIds(conf, nameservice)) {
        suffixes.add(nameservice + "." + nameNode);
      }
    }
    return suffixes;
  }

  static boolean sameEndpoint(InetSocketAddress configured, InetSocketAddress actual) {
    if (configured.getPort() != actual.getPort()) {
      return false;
    }
    if (configured.getAddress() != null && actual.getAddress() != null) {
      return configured.getAddress().equals(actual.getAddress());
    }
    return configured.getHostString().equalsIgnoreCase(actual.getHostString());
  }
}
