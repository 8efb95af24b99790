package org.mpcache.master;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.hadoop.util.Time;

/**
 * The master's view of the NameNode: blocks resolved to data sets under the namesystem's read
 * lock. A data set is the directory holding the block's file (its size: the blocks of the files
 * directly in it) or, per file, the file itself; blocks of paths that are not cached
 * ({@link CachedPaths}) have none. Its control is read from its inode's extended attributes at
 * each lookup ({@link DataSetControl}), so that a change reaches the master with the next read.
 */
final class NameNodeNamespace implements Namespace {
  private static final int DIRECTORY_SIZES_KEPT = 100_000;

  /** Block lookups per hold of the namesystem's read lock. */
  static final int BLOCKS_PER_LOCK = 1_000;

  private final NamesystemHolds lock;

  private final FSNamesystem namesystem;
  private final boolean perFile;
  /** Read at each lookup: a refresh may change them ({@code hdfs mpcacheadmin -refresh}). */
  private final Supplier<CachedPaths> cachedPaths;
  private final long blockSizeBytes;
  /** Directory sizes by inode id ({@link DirectorySize#validFor}). */
  private final Map<Long, DirectorySize> directorySizes = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, DirectorySize> eldest) {
      return size() > DIRECTORY_SIZES_KEPT;
    }
  };

  NameNodeNamespace(FSNamesystem namesystem, boolean perFile, Supplier<CachedPaths> cachedPaths,
      long blockSizeBytes, NamesystemHolds lock) {
    this.namesystem = namesystem;
    this.lock = lock;
    this.perFile = perFile;
    this.cachedPaths = cachedPaths;
    this.blockSizeBytes = blockSizeBytes;
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
    if (blockIds.length == 0) {
      return owners;
    }
    BlockManager blocks = namesystem.getBlockManager();
    CachedPaths cached = cachedPaths.get();
    // The lock is let go between batches: a slave registering with every copy it holds must not
    // keep the NameNode's writers waiting for all of them.
    for (int from = 0; from < blockIds.length; from += BLOCKS_PER_LOCK) {
      try (NamesystemHolds.Hold hold = lock.take("mpCacheDataSets")) {
        for (int i = from; i < Math.min(blockIds.length, from + BLOCKS_PER_LOCK); i++) {
          hold.spend(NamesystemHolds.LOOKUP_WORK);
          BlockInfo stored = blocks.getStoredBlock(new Block(blockIds[i]));
          INodeFile file = stored == null || stored.isDeleted() ? null
              : namesystem.getBlockCollection(stored.getBlockCollectionId());
          DataSetRef ref = file == null ? null : dataSetOf(file, hold);
          if (ref != null && cached.caches(ref.path())) {
            // A snapshot's block of a file truncated since to no blocks: read as a first block.
            BlockInfo[] fileBlocks = file.getBlocks();
            boolean startsFile =
                fileBlocks.length == 0 || fileBlocks[0].getBlockId() == stored.getBlockId();
            owners[i] = new BlockOwner(ref, startsFile);
          }
        }
      }
    }
    return owners;
  }

  @Override
  public DataSetRef dataSetAt(String path) throws IOException {
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

  @Override
  public List<BlockReplicas> blocksOf(DataSetRef ref) throws IOException {
    List<INodeFile> files = new ArrayList<>();
    try (NamesystemHolds.Hold hold = lock.take("mpCacheBlocksOf")) {
      INode inode = namesystem.getFSDirectory().getINode(ref.path(), DirOp.READ);
      if (inode == null) {
        throw new FileNotFoundException("mpCache master: no such path " + ref.path());
      }
      if (inode.isFile()) {
        files.add(inode.asFile());
      } else {
        for (INode child : inode.asDirectory().getChildrenList(Snapshot.CURRENT_STATE_ID)) {
          hold.spend(1);
          if (child.isFile()) {
            files.add(child.asFile());
          }
        }
      }
    }
    List<BlockReplicas> replicas = new ArrayList<>();
    for (int from = 0; from < files.size();) {
      from = replicasOf(files, from, replicas);
    }
    return replicas;
  }

  /**
   * Adds the replicas of the blocks of {@code files}, from index {@code from}, under one hold of
   * the read lock for about {@link #BLOCKS_PER_LOCK} blocks; returns where to go on. A file
   * deleted meanwhile adds blocks no DataNode holds any more: their loads are dropped.
   */
  private int replicasOf(List<INodeFile> files, int from, List<BlockReplicas> replicas) {
    BlockManager blocks = namesystem.getBlockManager();
    try (NamesystemHolds.Hold hold = lock.take("mpCacheBlocksOf")) {
      int added = 0;
      int next = from;
      while (next < files.size() && added < BLOCKS_PER_LOCK) {
        for (BlockInfo block : files.get(next++).getBlocks()) {
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
            hold.spend(NamesystemHolds.LOOKUP_WORK);
            added++;
          }
        }
      }
      return next;
    }
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

  /**
   * A directory's size in blocks, counted when none of its files was being written. A file's
   * blocks added after its creation, and appends, leave the directory's modification time as it
   * was, so a count is also recounted when a lookup comes through a file written since.
   */
  private record DirectorySize(long directoryModified, long countedAt, long blocks) {
    boolean validFor(INodeDirectory directory, INodeFile through) {
      return directory.getModificationTime() == directoryModified && (through == null
          || !through.isUnderConstruction() && through.getModificationTime() < countedAt);
    }
  }

  /** {@code through}: the file whose block is looked up, or null for the directory itself. */
  private DataSetRef directoryDataSet(INodeDirectory directory, INodeFile through,
      NamesystemHolds.Hold hold) {
    DirectorySize size = directorySizes.get(directory.getId());
    if (size == null || !size.validFor(directory, through)) {
      long countedAt = Time.now(); // the namesystem's clock; no file changes under its read lock
      long blocks = 0;
      boolean beingWritten = false;
      for (INode child : directory.getChildrenList(Snapshot.CURRENT_STATE_ID)) {
        hold.spend(1);
        if (child.isFile()) {
          blocks += child.asFile().numBlocks();
          beingWritten |= child.asFile().isUnderConstruction();
        }
      }
      size = new DirectorySize(directory.getModificationTime(), countedAt, blocks);
      if (beingWritten) {
        directorySizes.remove(directory.getId());
      } else {
        directorySizes.put(directory.getId(), size);
      }
    }
    return new DataSetRef(directory.getId(), directory.getFullPathName(),
        (int) Math.min(Integer.MAX_VALUE, size.blocks()), controlOf(directory));
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
