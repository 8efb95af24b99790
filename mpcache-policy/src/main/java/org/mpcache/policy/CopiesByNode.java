package org.mpcache.policy;

import java.util.Arrays;

/**
 * The blocks each data set holds on each node, for a policy that evicts a data set's copies on
 * one node at a time. Arrays and one primitive map, no object per (data set, node) pair or per
 * copy: the arbitrator's heap per block is what bounds how many blocks a master can track
 * (docs/policies.md, "Scale"). A pair's copies form a list, newest first. Not thread-safe.
 */
final class CopiesByNode {
  private static final int NONE = -1;
  private static final int INITIAL = 16;

  /** (data set, node) to its pair. */
  private final LongIntMap pairs = new LongIntMap();
  /** Per pair: its newest copy (when free: the next free pair), its size, its place in nodes. */
  private int[] newest = new int[INITIAL];
  private int[] sizes = new int[INITIAL];
  private int[] place = new int[INITIAL];
  private int pairsUsed;
  private int freePair = NONE;
  /** Per copy: its block, and the pair's next older copy (when free: the next free copy). */
  private long[] blocks = new long[INITIAL];
  private int[] older = new int[INITIAL];
  private int copiesUsed;
  private int freeCopy = NONE;
  /** Per data set: the nodes holding its copies (null when none), and how many. */
  private int[][] nodes = new int[INITIAL][];
  private int[] nodeCounts = new int[INITIAL];

  /** Adds a copy of {@code block} on the node; true when it is the data set's first there. */
  boolean add(int dataSet, int node, long block) {
    long key = key(dataSet, node);
    int pair = pairs.get(key, NONE);
    boolean first = pair == NONE;
    if (first) {
      pair = newPair(dataSet, node);
      pairs.put(key, pair);
    }
    int copy = newCopy();
    blocks[copy] = block;
    older[copy] = newest[pair];
    newest[pair] = copy;
    sizes[pair]++;
    return first;
  }

  /**
   * Removes the copy of {@code block} (held) on the node; true when it was the data set's last
   * there.
   */
  boolean remove(int dataSet, int node, long block) {
    long key = key(dataSet, node);
    int pair = pairs.get(key, NONE);
    int previous = NONE;
    int copy = newest[pair];
    while (blocks[copy] != block) {
      previous = copy;
      copy = older[copy];
    }
    if (previous == NONE) {
      newest[pair] = older[copy];
    } else {
      older[previous] = older[copy];
    }
    older[copy] = freeCopy;
    freeCopy = copy;
    if (--sizes[pair] > 0) {
      return false;
    }
    pairs.remove(key, NONE);
    releasePair(dataSet, pair);
    return true;
  }

  /** The data set's copies on the node. */
  int count(int dataSet, int node) {
    int pair = pairs.get(key(dataSet, node), NONE);
    return pair == NONE ? 0 : sizes[pair];
  }

  /** The block of the data set's newest copy on the node, which holds at least one. */
  long newestBlock(int dataSet, int node) {
    return blocks[newest[pairs.get(key(dataSet, node), NONE)]];
  }

  /** How many nodes hold copies of the data set. */
  int nodeCount(int dataSet) {
    return dataSet < nodeCounts.length ? nodeCounts[dataSet] : 0;
  }

  /** The {@code i}-th node holding copies of the data set, {@code i < nodeCount(dataSet)}. */
  int node(int dataSet, int i) {
    return nodes[dataSet][i];
  }

  private int newPair(int dataSet, int node) {
    if (dataSet >= nodes.length) {
      int length = Math.max(dataSet + 1, nodes.length * 3 / 2);
      nodes = Arrays.copyOf(nodes, length);
      nodeCounts = Arrays.copyOf(nodeCounts, length);
    }
    int count = nodeCounts[dataSet];
    if (nodes[dataSet] == null) {
      nodes[dataSet] = new int[2];
    } else if (count == nodes[dataSet].length) {
      nodes[dataSet] = Arrays.copyOf(nodes[dataSet], count * 2);
    }
    nodes[dataSet][count] = node;
    nodeCounts[dataSet] = count + 1;

    int pair = freePair;
    if (pair != NONE) {
      freePair = newest[pair];
    } else {
      if (pairsUsed == newest.length) {
        int length = pairsUsed * 3 / 2;
        newest = Arrays.copyOf(newest, length);
        sizes = Arrays.copyOf(sizes, length);
        place = Arrays.copyOf(place, length);
      }
      pair = pairsUsed++;
    }
    newest[pair] = NONE;
    sizes[pair] = 0;
    place[pair] = count;
    return pair;
  }

  /** Frees the pair, moving the data set's last node into its place in the node list. */
  private void releasePair(int dataSet, int pair) {
    int last = --nodeCounts[dataSet];
    int[] held = nodes[dataSet];
    if (last == 0) {
      nodes[dataSet] = null;
    } else if (place[pair] != last) {
      held[place[pair]] = held[last];
      place[pairs.get(key(dataSet, held[last]), NONE)] = place[pair];
    }
    newest[pair] = freePair;
    freePair = pair;
  }

  private int newCopy() {
    int copy = freeCopy;
    if (copy != NONE) {
      freeCopy = older[copy];
      return copy;
    }
    if (copiesUsed == blocks.length) {
      int length = copiesUsed * 3 / 2;
      blocks = Arrays.copyOf(blocks, length);
      older = Arrays.copyOf(older, length);
    }
    return copiesUsed++;
  }

  private static long key(int dataSet, int node) {
    return (long) dataSet << 32 | node & 0xFFFFFFFFL;
  }
}
