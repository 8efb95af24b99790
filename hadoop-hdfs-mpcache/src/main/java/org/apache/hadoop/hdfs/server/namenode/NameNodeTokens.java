package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSecretManager;

/**
 * The NameNode's delegation-token secret manager, which Hadoop keeps package-private: the cache
 * master's RPC server checks jobs' HDFS delegation tokens with it (docs/security.md).
 * TestSecureMaster fails if Hadoop changes it.
 */
public final class NameNodeTokens {
  private NameNodeTokens() {
  }

  public static DelegationTokenSecretManager secretManager(FSNamesystem namesystem) {
    return namesystem.getDelegationTokenSecretManager();
  }
}
