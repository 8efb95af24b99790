package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * The NameNode's own superuser check, which Hadoop keeps package-private: the caller must be the
 * NameNode's user or in {@code dfs.permissions.superusergroup} (anyone may when
 * {@code dfs.permissions.enabled} is false), and a refusal is audit-logged as the NameNode's
 * refusals are. TestMasterCallers fails if Hadoop changes it.
 */
public final class NameNodeSuperusers {
  private NameNodeSuperusers() {
  }

  public static void check(FSNamesystem namesystem, String operation) throws IOException {
    namesystem.checkSuperuserPrivilege(operation);
  }

  /**
   * The same decision for the current user, without an audit line: for a page anyone may load,
   * which reloads itself every few seconds.
   */
  public static boolean isSuperuser(FSNamesystem namesystem) throws IOException {
    return !namesystem.isPermissionEnabled() || namesystem.getPermissionChecker().isSuperUser();
  }
}
