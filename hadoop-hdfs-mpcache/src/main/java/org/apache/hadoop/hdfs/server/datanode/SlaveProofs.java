package org.apache.hadoop.hdfs.server.datanode;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.security.token.Token;
import org.mpcache.protocol.SlaveProof;

/**
 * The proofs a cache slave's calls carry (docs/security.md, "The master"): for each block pool
 * whose block keys the DataNode holds, a block token for user {@code mpcache-slave:<uuid>},
 * block 0, no access mode (it opens no block), made with the DataNode's current key. The
 * DataNode keeps its keys in package-private fields, hence this package; TestMasterCallers fails
 * if they change.
 */
public final class SlaveProofs {
  private static final String USER_PREFIX = "mpcache-slave:";

  private SlaveProofs() {
  }

  /** The user a proof of DataNode {@code datanodeUuid} is made for. */
  public static String userOf(String datanodeUuid) {
    return USER_PREFIX + datanodeUuid;
  }

  /** Proofs that calls come from {@code dataNode}; none while it has no block keys. */
  public static List<SlaveProof> of(DataNode dataNode) {
    if (!dataNode.isBlockTokenEnabled) {
      return List.of();
    }
    String user = userOf(dataNode.getDatanodeUuid());
    List<SlaveProof> proofs = new ArrayList<>();
    for (BPOfferService pool : dataNode.getAllBpOs()) {
      String blockPoolId = pool.getBlockPoolId();
      if (blockPoolId == null
          || !dataNode.blockPoolTokenSecretManager.isBlockPoolRegistered(blockPoolId)) {
        continue;
      }
      try {
        Token<BlockTokenIdentifier> token = dataNode.blockPoolTokenSecretManager
            .get(blockPoolId).generateToken(user, new ExtendedBlock(blockPoolId, 0),
                EnumSet.noneOf(AccessMode.class), new StorageType[0], new String[0]);
        proofs.add(new SlaveProof(token.getIdentifier(), token.getPassword()));
      } catch (IllegalStateException e) {
        // No current key yet: the pool's NameNode has not sent one; the master refuses the call
        // and the slave tries again at its next heartbeat.
      }
    }
    return proofs;
  }
}
