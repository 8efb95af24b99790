package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.EnumSet;

import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * The NameNode's own extended-attribute calls, which Hadoop keeps package-private, made as the
 * RPC caller: its permission check (the {@code trusted.} namespace is for superusers), edit log,
 * retry cache and audit log apply as to {@code hdfs dfs -setfattr}. The master keeps each data
 * set's pin and TTL with them (docs/operations.md, "Steering the cache"); TestMasterControl
 * fails if Hadoop changes them.
 */
public final class NameNodeXAttrs {
  private NameNodeXAttrs() {
  }

  /** Sets {@code xAttr} on {@code path}, replacing a value it has. */
  public static void set(FSNamesystem namesystem, String path, XAttr xAttr) throws IOException {
    namesystem.setXAttr(path, xAttr, EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE),
        false);
  }

  /** Removes {@code xAttr} from {@code path}, which has it. */
  public static void remove(FSNamesystem namesystem, String path, XAttr xAttr)
      throws IOException {
    namesystem.removeXAttr(path, xAttr, false);
  }
}
