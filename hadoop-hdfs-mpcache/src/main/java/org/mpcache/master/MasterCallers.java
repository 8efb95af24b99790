package org.mpcache.master;

import java.io.IOException;
import java.net.InetAddress;

import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNodeSuperusers;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;

/**
 * Whom the master takes each call from (docs/security.md, "The master"). A slave's call
 * (register, heartbeat, admission) names a DataNode: the NameNode must know that DataNode as live,
 * at the address the call comes from. The report, which lists data sets by path, is for HDFS
 * superusers, as {@code hdfs dfsadmin -report} is. A call made in the NameNode's own process (no
 * RPC caller) is trusted.
 */
final class MasterCallers {
  private final FSNamesystem namesystem;

  MasterCallers(FSNamesystem namesystem) {
    this.namesystem = namesystem;
  }

  /** The address the NameNode knows a live DataNode by; null for an unknown or dead one. */
  @FunctionalInterface
  interface LiveDataNodes {
    String addressOf(String datanodeUuid);
  }

  /** Refuses a slave's call that the DataNode it names cannot have made. */
  void checkSlave(String datanodeUuid) throws AccessControlException {
    InetAddress caller = Server.getRemoteIp();
    if (caller != null) {
      checkSlave(datanodeUuid, caller.getHostAddress(), this::liveAddressOf);
    }
  }

  static void checkSlave(String datanodeUuid, String callerAddress, LiveDataNodes nodes)
      throws AccessControlException {
    String known = nodes.addressOf(datanodeUuid);
    if (known == null) {
      throw new AccessControlException("mpCache master: a call from " + callerAddress
          + " as DataNode " + datanodeUuid + ", which the NameNode does not know as live (a slave"
          + " is heard once its DataNode has registered with the NameNode)");
    }
    if (!known.equals(callerAddress)) {
      throw new AccessControlException("mpCache master: a call from " + callerAddress
          + " as DataNode " + datanodeUuid + ", which the NameNode knows at " + known);
    }
  }

  private String liveAddressOf(String datanodeUuid) {
    DatanodeDescriptor node =
        namesystem.getBlockManager().getDatanodeManager().getDatanode(datanodeUuid);
    return node != null && node.isAlive() ? node.getIpAddr() : null;
  }

  /** Refuses {@code operation} to a caller who is not an HDFS superuser. */
  void checkSuperuser(String operation) throws IOException {
    if (Server.getRemoteIp() != null) {
      NameNodeSuperusers.check(namesystem, operation);
    }
  }
}
