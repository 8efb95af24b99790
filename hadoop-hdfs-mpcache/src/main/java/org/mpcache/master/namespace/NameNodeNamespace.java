package org.mpcache.master.namespace;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSDirectory.DirOp;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.XAttrFeature;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.ReadOnlyList;
import org.mpcache.conf.CachedPaths;

/**
 * The master's view of the NameNode: blocks resolved to data sets under the namesystem's read
 * lock, in holds of bounded work ({@link NamesystemHolds}) whatever the directories' sizes. A data
 * set is the directory holding the block's file (its size: the blocks of the files directly in
 * it, {@link DirectorySizes}) or, per file, the file itself; blocks of paths that are not cached
 * ({@link CachedPaths}) have none. Its control is read from its inode's extended attributes at
 * each lookup ({@link DataSetControl}), so that a change reaches the master with the next read.
 */
public final class NameNodeNamespace implements Namespace {
  private final FSNamesystem namesystem;
  private final boolean perFile;
  /** Read at each lookup: a refresh may change them ({@code hdfs mpcacheadmin -refresh}). */
  private final Supplier<CachedPaths> cachedPaths;
  private final long blockSizeBytes;
  private final NamesystemHolds lock;
  private final DirectorySizes directorySizes;

  public NameNodeNamespace(FSNamesystem namesystem, boolean perFile,
      Supplier<CachedPaths> cachedPaths, long blockSizeBytes, NamesystemHolds lock) {
    this.namesystem = namesystem;
    this.perFile = perFile;
    this.cachedPaths = cachedPaths;
    this.blockSizeBytes = blockSizeBytes;
    this.lock = lock;
    this.directorySizes = new DirectorySizes(lock.workPerHold());
  }

  @Override
  public String blockPoolId() {
    return namesystem.getBlockPoolId();
  }

  @Override
  public long blockSizeBytes() {
    return blockSizeBytes;
  }

  @Override
  public BlockOwner[] ownersOf(long[] blockIds) {
    BlockOwner[] owners = new BlockOwner[blockIds.length];
    BlockManager blocks = namesystem.getBlockManager();
    CachedPaths cached = cachedPaths.get();
    directorySizes.newCall();
    // The lock is let go when a hold's budget is spent: a slave registering with every copy it
    // holds must not keep the NameNode's writers waiting for all of them.
    for (int i = 0; i < blockIds.length;) {
      try (NamesystemHolds.Hold hold = lock.take("mpCacheDataSets")) {
        for (; i < blockIds.length && hold.allows(NamesystemHolds.LOOKUP_WORK); i++) {
          hold.spend(NamesystemHolds.LOOKUP_WORK);
          owners[i] = ownerOf(blocks, blockIds[i], cached, hold);
        }
      }
    }
    return owners;
  }

  private BlockOwner ownerOf(BlockManager blocks, long blockId, CachedPaths cached,
      NamesystemHolds.Hold hold) {
    BlockInfo stored = blocks.getStoredBlock(new Block(blockId));
    INodeFile file = stored == null || stored.isDeleted() ? null
        : namesystem.getBlockCollection(stored.getBlockCollectionId());
    DataSetRef ref = file == null ? null : dataSetOf(file, hold);
    if (ref == null || !cached.caches(ref.path())) {
      return null;
    }
    // A snapshot's block of a file truncated since to no blocks: read as a first block.
    BlockInfo[] fileBlocks = file.getBlocks();
    return new BlockOwner(ref,
        fileBlocks.length == 0 || fileBlocks[0].getBlockId() == stored.getBlockId());
  }

  @Override
  public DataSetRef dataSetAt(String path) throws IOException {
    directorySizes.newCall();
    try (NamesystemHolds.Hold hold = lock.take("mpCacheDataSetAt")) {
      INode inode = namesystem.getFSDirectory().getINode(path, DirOp.READ);
      if (inode == null) {
        throw new FileNotFoundException("mpCache master: no such path " + path);
      }
      DataSetRef ref;
      if (inode.isFile()) {
        ref = dataSetOf(inode.asFile(), hold);
      } else if (inode.isDirectory() && !perFile) {
        ref = directoryDataSet(inode.asDirectory(), null, hold);
      } else {
        return null; // with data sets per file, a directory is none
      }
      return cachedPaths.get().caches(ref.path()) ? ref : null;
    }
  }

  /** Where a walk of a data set's blocks goes on: a child (null: the first) and a block of it. */
  private static final class Walk {
    byte[] child;
    int block;
    boolean done;
  }

  /**
   * {@inheritDoc} Walked over as many holds as its blocks and children need, going on by child
   * name; a file deleted or added meanwhile is left out or taken in as the walk finds it, and one
   * deleted after its blocks were taken adds blocks no DataNode holds any more: their loads are
   * dropped.
   */
  @Override
  public List<BlockReplicas> blocksOf(DataSetRef ref) throws IOException {
    List<BlockReplicas> replicas = new ArrayList<>();
    Walk walk = new Walk();
    for (boolean first = true; !walk.done; first = false) {
      try (NamesystemHolds.Hold hold = lock.take("mpCacheBlocksOf")) {
        INode inode = namesystem.getFSDirectory().getINode(ref.path(), DirOp.READ);
        if (inode == null && first) {
          throw new FileNotFoundException("mpCache master: no such path " + ref.path());
        } else if (inode == null) {
          break; // gone meanwhile: what was found is loaded
        } else if (inode.isFile()) {
          walk.block = replicasOf(inode.asFile(), walk.block, hold, replicas);
          walk.done = walk.block < 0;
        } else {
          walkChildren(inode.asDirectory(), walk, hold, replicas);
        }
      }
    }
    return replicas;
  }

  private void walkChildren(INodeDirectory directory, Walk walk, NamesystemHolds.Hold hold,
      List<BlockReplicas> replicas) {
    ReadOnlyList<INode> children = directory.getChildrenList(Snapshot.CURRENT_STATE_ID);
    int i = 0;
    int block = 0;
    if (walk.child != null) {
      int found = ReadOnlyList.Util.binarySearch(children, walk.child);
      i = found >= 0 ? found : -found - 1; // the child where the walk stopped, or the next one
      block = found >= 0 ? walk.block : 0;
    }
    for (; i < children.size() && hold.allows(1); i++, block = 0) {
      INode child = children.get(i);
      hold.spend(1);
      int next = child.isFile() ? replicasOf(child.asFile(), block, hold, replicas) : -1;
      if (next >= 0) {
        walk.child = child.getLocalNameBytes();
        walk.block = next;
        return;
      }
    }
    walk.done = i == children.size();
    if (!walk.done) {
      walk.child = children.get(i).getLocalNameBytes();
      walk.block = 0;
    }
  }

  /**
   * Adds the replicas of the file's finalized blocks from index {@code from} while the hold's
   * budget lasts; returns the index to go on from, or -1 once the file is through.
   */
  private int replicasOf(INodeFile file, int from, NamesystemHolds.Hold hold,
      List<BlockReplicas> replicas) {
    BlockManager blocks = namesystem.getBlockManager();
    BlockInfo[] fileBlocks = file.getBlocks();
    for (int b = from; b < fileBlocks.length; b++) {
      if (!hold.allows(NamesystemHolds.LOOKUP_WORK)) {
        return b;
      }
      hold.spend(NamesystemHolds.LOOKUP_WORK);
      BlockInfo block = fileBlocks[b];
      if (block.isComplete() && !block.isStriped()) { // as the slaves cache them
        Collection<DatanodeDescriptor> corrupt = blocks.getCorruptReplicas(block);
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
          DatanodeDescriptor holder = storage.getDatanodeDescriptor();
          if (corrupt == null || !corrupt.contains(holder)) {
            holders.add(holder.getDatanodeUuid());
          }
        }
        replicas.add(new BlockReplicas(block.getBlockId(), holders));
      }
    }
    return -1;
  }

  @Override
  public long lockHeldNanos() {
    return lock.heldNanos();
  }

  /** The master's holds of the namesystem lock, for tests to bound. */
  NamesystemHolds holds() {
    return lock;
  }

  private DataSetRef dataSetOf(INodeFile file, NamesystemHolds.Hold hold) {
    INodeDirectory directory = file.getParent();
    if (perFile || directory == null) {
      return new DataSetRef(file.getId(), file.getFullPathName(), file.numBlocks(),
          controlOf(file));
    }
    return directoryDataSet(directory, file, hold);
  }

  /** {@code through}: the file whose block is looked up, or null for the directory itself. */
  private DataSetRef directoryDataSet(INodeDirectory directory, INodeFile through,
      NamesystemHolds.Hold hold) {
    long blocks = directorySizes.blocks(directory, through, hold);
    return new DataSetRef(directory.getId(), directory.getFullPathName(),
        (int) Math.min(Integer.MAX_VALUE, blocks), controlOf(directory));
  }

  private static DataSetControl controlOf(INode inode) {
    XAttrFeature xAttrs = inode.getXAttrFeature();
    if (xAttrs == null) {
      return DataSetControl.NONE;
    }
    return DataSetControl.of(valueOf(xAttrs.getXAttr(DataSetControl.PIN_XATTR)),
        valueOf(xAttrs.getXAttr(DataSetControl.TTL_XATTR)));
  }

  private static byte[] valueOf(XAttr xAttr) {
    return xAttr == null ? null : xAttr.getValue() == null ? new byte[0] : xAttr.getValue();
  }

  @Override
  public boolean leavingService(String datanodeUuid) {
    DatanodeDescriptor node =
        namesystem.getBlockManager().getDatanodeManager().getDatanode(datanodeUuid);
    return node != null && (node.isDecommissionInProgress() || node.isDecommissioned()
        || node.isEnteringMaintenance() || node.isInMaintenance());
  }

  @Override
  public Set<String> liveDataNodes() {
    if (namesystem.isInSafeMode()) {
      return null;
    }
    return namesystem.getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.LIVE).stream()
        .map(DatanodeDescriptor::getDatanodeUuid).collect(Collectors.toSet());
  }
}
