package org.mpcache.master;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.security.MessageDigest;
import java.security.PrivilegedExceptionAction;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.SlaveProofs;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNodeSuperusers;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.SecretManager;
import org.mpcache.protocol.SlaveProof;

/**
 * Whom the master takes each call from (docs/security.md, "The master"). A slave's call
 * (register, heartbeat, admission) names a DataNode: the NameNode must know that DataNode as live,
 * at the address the call comes from; under Kerberos the caller must be that DataNode's principal
 * ({@code dfs.datanode.kerberos.principal} for its host); and when block tokens are on, the call
 * must carry a proof made for that DataNode with the block keys the NameNode shares with its
 * DataNodes (SlaveProofs). The report, which lists data sets by
 * path, is for HDFS superusers, as {@code hdfs dfsadmin -report} is. A call made in the
 * NameNode's own process (no RPC caller) is trusted.
 */
final class MasterCallers {
  private final FSNamesystem namesystem;
  /** {@code dfs.datanode.kerberos.principal}, maybe with {@code _HOST}; null when unset. */
  private final String dataNodePrincipal;

  MasterCallers(FSNamesystem namesystem, Configuration conf) {
    this.namesystem = namesystem;
    this.dataNodePrincipal = conf.getTrimmed(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY);
  }

  /** Refuses a slave's call that the DataNode it names cannot have made. */
  void checkSlave(String datanodeUuid, List<SlaveProof> proofs) throws IOException {
    InetAddress caller = Server.getRemoteIp();
    if (caller == null) {
      return;
    }
    DatanodeDescriptor node =
        namesystem.getBlockManager().getDatanodeManager().getDatanode(datanodeUuid);
    boolean live = node != null && node.isAlive();
    checkAddress(datanodeUuid, caller.getHostAddress(), live ? node.getIpAddr() : null);
    if (UserGroupInformation.isSecurityEnabled()) {
      checkPrincipal(datanodeUuid, Server.getRemoteUser(), dataNodePrincipal, node.getHostName());
    }
    BlockTokenSecretManager blockKeys = namesystem.getBlockManager().getBlockTokenSecretManager();
    if (blockKeys != null) {
      checkProof(datanodeUuid, proofs, namesystem.getBlockPoolId(), blockKeys);
    }
  }

  /** A slave's call from {@code callerAddress} as a DataNode known at {@code knownAddress}. */
  static void checkAddress(String datanodeUuid, String callerAddress, String knownAddress)
      throws AccessControlException {
    if (knownAddress == null) {
      throw new AccessControlException("mpCache master: a call from " + callerAddress
          + " as DataNode " + datanodeUuid + ", which the NameNode does not know as live (a slave"
          + " is heard once its DataNode has registered with the NameNode)");
    }
    if (!knownAddress.equals(callerAddress)) {
      throw new AccessControlException("mpCache master: a call from " + callerAddress
          + " as DataNode " + datanodeUuid + ", which the NameNode knows at " + knownAddress);
    }
  }

  /**
   * A slave's call by {@code caller} as the DataNode on {@code dataNodeHost}: the caller must
   * have authenticated with Kerberos itself (not a token, not as a proxy) as
   * {@code dataNodePrincipal}, its {@code _HOST} the DataNode's host name.
   */
  static void checkPrincipal(String datanodeUuid, UserGroupInformation caller,
      String dataNodePrincipal, String dataNodeHost) throws IOException {
    if (dataNodePrincipal == null) {
      throw new AccessControlException("mpCache master: a call by " + caller + " as DataNode "
          + datanodeUuid + " cannot be checked: "
          + DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY + " is not set on the NameNode");
    }
    String expected = SecurityUtil.getServerPrincipal(dataNodePrincipal, dataNodeHost);
    if (caller.getAuthenticationMethod() != AuthenticationMethod.KERBEROS
        || !expected.equals(caller.getUserName())) {
      throw new AccessControlException("mpCache master: a call by " + caller + " as DataNode "
          + datanodeUuid + ", whose principal is " + expected);
    }
  }

  /**
   * Refuses a slave's call unless one of its {@code proofs} is a block token of
   * {@code blockPoolId} made with {@code blockKeys} for DataNode {@code datanodeUuid}.
   */
  static void checkProof(String datanodeUuid, List<SlaveProof> proofs, String blockPoolId,
      SecretManager<BlockTokenIdentifier> blockKeys) throws AccessControlException {
    String why = "it carries no proof for block pool " + blockPoolId
        + " (the slave's DataNode has no block keys of it yet, or this is not a DataNode)";
    for (SlaveProof proof : proofs) {
      BlockTokenIdentifier id = new BlockTokenIdentifier();
      try {
        id.readFields(new DataInputStream(new ByteArrayInputStream(proof.identifier())));
      } catch (IOException e) {
        why = "its proof is not a block token";
        continue;
      }
      if (!blockPoolId.equals(id.getBlockPoolId())) {
        continue;
      }
      if (!SlaveProofs.userOf(datanodeUuid).equals(id.getUserId())
          || !id.getAccessModes().isEmpty()) {
        why = "its proof was made for " + id.getUserId() + " with modes " + id.getAccessModes();
        continue;
      }
      try {
        if (MessageDigest.isEqual(blockKeys.retrievePassword(id), proof.password())) {
          return;
        }
        why = "its proof was not made with the NameNode's block keys";
      } catch (SecretManager.InvalidToken e) {
        why = "its proof is no longer valid: " + e.getMessage();
      }
    }
    throw new AccessControlException("mpCache master: a call as DataNode " + datanodeUuid
        + " is refused: " + why);
  }

  /**
   * Whether {@code user} (a web page's viewer, not an RPC caller) is an HDFS superuser; not
   * audit-logged, as the page reloads itself every few seconds.
   */
  boolean isSuperuser(UserGroupInformation user) {
    try {
      return user.doAs((PrivilegedExceptionAction<Boolean>) () ->
          NameNodeSuperusers.isSuperuser(namesystem)); // checks the current user
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Refuses {@code operation} to a caller who is not an HDFS superuser. */
  void checkSuperuser(String operation) throws IOException {
    if (Server.getRemoteIp() != null) {
      NameNodeSuperusers.check(namesystem, operation);
    }
  }
}
