package org.mpcache.master.namespace;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.ReadOnlyList;
import org.apache.hadoop.util.Time;

/**
 * Directory sizes in blocks (those of the files directly in a directory), kept by inode id, for
 * the data sets of directories (docs/architecture.md, "Data sets"). A count may take several
 * calls: each call visits at most one hold's budget of children, going on after the last child
 * name it counted (a directory lists its children sorted by name, as the NameNode's own listing
 * resumes them), and meanwhile the last count stands, or before any an estimate: the blocks
 * counted so far scaled to all the children.
 *
 * <p>A count stands until the directory's modification time changes (a child created, deleted or
 * renamed) or a lookup comes through a closed file modified since the count began: blocks added
 * by an append, or by a writer that closed since, leave the directory's time as it was. A file
 * still being written counts the blocks it has when it is visited: its growth until it closes
 * makes the count approximate.
 */
final class DirectorySizes {
  private static final int KEPT = 100_000;
  private static final byte[] FIRST = new byte[0];

  /** A directory's last count, and the count under way if any. */
  private static final class Size {
    /** The directory's modification time when the last count began; -1 before any. */
    long countedModified = -1;
    /** When the last count began, by the namesystem's clock. */
    long countedAt;
    long blocks;
    /** The last child name counted by the count under way ({@link #FIRST} before any); null for none. */
    byte[] after;
    long countingModified;
    long countingSince;
    long partialBlocks;
    long partialChildren;
  }

  /** Least recently looked up first; the eldest go past {@link #KEPT}. */
  private final Map<Long, Size> sizes = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Size> eldest) {
      return size() > KEPT;
    }
  };
  private final int childrenPerCall;
  /** Children the current call may still visit. */
  private int allowance;

  DirectorySizes(int childrenPerCall) {
    this.childrenPerCall = childrenPerCall;
  }

  /** A call of the master's begins: its counts may visit {@code childrenPerCall} children. */
  void newCall() {
    allowance = childrenPerCall;
  }

  /**
   * The directory's size in blocks, counting on with what {@code hold} has left; at least 1 when
   * looked up {@code through} a file of it, which the caller reads.
   */
  long blocks(INodeDirectory directory, INodeFile through, NamesystemHolds.Hold hold) {
    Size size = sizes.computeIfAbsent(directory.getId(), id -> new Size());
    boolean stands = size.countedModified == directory.getModificationTime() && (through == null
        || through.isUnderConstruction() || through.getModificationTime() < size.countedAt);
    if (!stands && size.after == null) {
      size.after = FIRST;
      size.countingModified = directory.getModificationTime();
      size.countingSince = Time.now(); // the namesystem's clock, by which files are stamped
      size.partialBlocks = 0;
      size.partialChildren = 0;
    }
    ReadOnlyList<INode> children = directory.getChildrenList(Snapshot.CURRENT_STATE_ID);
    if (size.after != null) {
      countOn(size, children, hold);
    }
    long blocks = size.countedModified >= 0 ? size.blocks
        : size.partialChildren == 0 ? children.size()
        : size.partialBlocks * children.size() / size.partialChildren;
    return through == null ? blocks : Math.max(1, blocks);
  }

  private void countOn(Size size, ReadOnlyList<INode> children, NamesystemHolds.Hold hold) {
    int from = nextChild(children, size.after);
    int to = Math.min(children.size(), from + Math.min(hold.left(), allowance));
    for (int i = from; i < to; i++) {
      INode child = children.get(i);
      if (child.isFile()) {
        size.partialBlocks += child.asFile().numBlocks();
      }
    }
    hold.spend(to - from);
    allowance -= to - from;
    size.partialChildren += to - from;
    if (to == children.size()) {
      size.countedModified = size.countingModified;
      size.countedAt = size.countingSince;
      size.blocks = size.partialBlocks;
      size.after = null;
    } else if (to > from) {
      size.after = children.get(to - 1).getLocalNameBytes();
    }
  }

  /**
   * Where a listing resumes after the child named {@code after}, whether or not it is still
   * there: as {@code INodeDirectory.nextChild} finds it for the NameNode's own listings
   * (TestNameNodeNamespace checks that the two agree).
   */
  static int nextChild(ReadOnlyList<INode> children, byte[] after) {
    if (after.length == 0) {
      return 0;
    }
    int next = ReadOnlyList.Util.binarySearch(children, after) + 1;
    return next >= 0 ? next : -next;
  }
}
