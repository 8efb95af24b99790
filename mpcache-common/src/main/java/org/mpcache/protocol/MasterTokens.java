package org.mpcache.protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * Lets a caller that holds an HDFS delegation token but no Kerberos ticket (a job's
 * ApplicationMaster asking where blocks are cached, on a Kerberized cluster) reach the master,
 * which runs in the NameNode and takes the NameNode's delegation tokens (docs/security.md). The
 * caller's token for its default file system is cloned for the master's address, as Hadoop's HA
 * client clones a nameservice's token for each NameNode.
 */
final class MasterTokens {
  private MasterTokens() {
  }

  /** Adds the clone to the current user, when it needs one and holds the token. */
  static void cloneForMaster(Configuration conf, InetSocketAddress master) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return;
    }
    UserGroupInformation caller = UserGroupInformation.getCurrentUser();
    if (caller.hasKerberosCredentials()) {
      return;
    }
    Text nameNodeService = nameNodeService(conf);
    if (nameNodeService == null) {
      return;
    }
    Text masterService = SecurityUtil.buildTokenService(master);
    for (Token<?> token : caller.getTokens()) {
      if (DelegationTokenIdentifier.HDFS_DELEGATION_KIND.equals(token.getKind())
          && !token.isPrivate() && token.getService().equals(nameNodeService)) {
        caller.addToken(masterService, token.privateClone(masterService));
        return;
      }
    }
  }

  /**
   * The service of the HDFS delegation tokens for the default file system, as HDFS names it
   * ({@code ha-hdfs:<nameservice>} or the NameNode's {@code host:port}); null when the default
   * file system is not HDFS (viewfs, for one: its masters are not found this way).
   */
  static Text nameNodeService(Configuration conf) {
    URI uri = FileSystem.getDefaultUri(conf);
    if (!HdfsConstants.HDFS_URI_SCHEME.equals(uri.getScheme())) {
      return null;
    }
    return HAUtilClient.isLogicalUri(conf, uri)
        ? HAUtilClient.buildTokenServiceForLogicalUri(uri, HdfsConstants.HDFS_URI_SCHEME)
        : SecurityUtil.buildTokenService(DFSUtilClient.getNNAddress(uri));
  }
}
