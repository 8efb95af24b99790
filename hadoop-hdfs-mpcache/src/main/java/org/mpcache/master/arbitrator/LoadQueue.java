package org.mpcache.master.arbitrator;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The blocks admins load ({@code hdfs mpcacheadmin -load}), each queued for one node that holds a
 * replica of it, and handed to that node's slave in heartbeats, at most {@code maxInFlight} at a
 * time: the slave's background fill threads copy them, so the bound keeps its fill queue short
 * and the load's pace the node's. A handed-out block is settled when the slave asks admission
 * for it (its copy started), reports it cached or removed, or, after {@code staleMillis} without
 * either, dropped (the slave had no finalized replica, its fill queue or admission requests were
 * full, or fills are off).
 * Pure: the master calls it under its lock with its clock.
 */
final class LoadQueue {
  /** A load's progress: blocks queued or handed out, and blocks the policy refused. */
  record Progress(int loading, int refused) {
    static final Progress NONE = new Progress(0, 0);
  }

  private record Load(long block, int dataSetId) {
  }

  private record HandedOut(int dataSetId, long atMillis) {
  }

  /** One node's queue, and what it was handed by block, in the order handed out. */
  private static final class NodeLoads {
    final ArrayDeque<Load> queued = new ArrayDeque<>();
    final Map<Long, HandedOut> handedOut = new LinkedHashMap<>();

    boolean idle() {
      return queued.isEmpty() && handedOut.isEmpty();
    }
  }

  private int maxInFlight;
  private long staleMillis;
  private final Map<Integer, NodeLoads> nodes = new HashMap<>();
  /** Blocks queued or handed out, each on one node. */
  private final Map<Long, Integer> nodeOfBlock = new HashMap<>();
  /** Loading and refused blocks per data set id. */
  private final Map<Integer, int[]> progress = new HashMap<>();
  private final LongConsumer dropped;

  /** {@code dropped} hears of blocks dropped unsettled (stale, or their slave left). */
  LoadQueue(int maxInFlight, long staleMillis, LongConsumer dropped) {
    limits(maxInFlight, staleMillis);
    this.dropped = dropped;
  }

  /** New bounds (a refresh): blocks in flight per node, and how long one may stay unsettled. */
  void limits(int maxInFlightPerNode, long staleAfterMillis) {
    this.maxInFlight = maxInFlightPerNode;
    this.staleMillis = staleAfterMillis;
  }

  /** Starts a new load of data set {@code dataSetId}: its refusals count from zero. */
  void starting(int dataSetId) {
    int[] counts = progress.get(dataSetId);
    if (counts != null) {
      counts[1] = 0;
    }
  }

  /** Queues {@code block} for {@code node}; false when it is queued or handed out already. */
  boolean queue(int dataSetId, long block, int node) {
    if (nodeOfBlock.putIfAbsent(block, node) != null) {
      return false;
    }
    nodes.computeIfAbsent(node, n -> new NodeLoads()).queued.add(new Load(block, dataSetId));
    progress.computeIfAbsent(dataSetId, id -> new int[2])[0]++;
    return true;
  }

  /** Blocks queued or handed out to {@code node}: where a load goes, the fewest wins. */
  int loadsOn(int node) {
    NodeLoads loads = nodes.get(node);
    return loads == null ? 0 : loads.queued.size() + loads.handedOut.size();
  }

  /**
   * The blocks to hand {@code node}'s slave now: handed-out blocks unsettled for longer than the
   * stale time are dropped first, then queued ones fill the room up to the bound.
   */
  long[] handOut(int node, long now) {
    NodeLoads loads = nodes.get(node);
    if (loads == null) {
      return new long[0];
    }
    Iterator<Map.Entry<Long, HandedOut>> oldest = loads.handedOut.entrySet().iterator();
    while (oldest.hasNext()) {
      Map.Entry<Long, HandedOut> stale = oldest.next();
      if (now - stale.getValue().atMillis() <= staleMillis) {
        break; // in the order handed out
      }
      oldest.remove();
      dropped.accept(1);
      settle(stale.getKey(), stale.getValue().dataSetId(), false);
    }
    int room = Math.min(loads.queued.size(), maxInFlight - loads.handedOut.size());
    long[] blocks = new long[Math.max(0, room)];
    for (int i = 0; i < blocks.length; i++) {
      Load load = loads.queued.poll();
      loads.handedOut.put(load.block(), new HandedOut(load.dataSetId(), now));
      blocks[i] = load.block();
    }
    forgetIfIdle(node, loads);
    return blocks;
  }

  /**
   * {@code node}'s slave acted on {@code block}: asked admission for it ({@code refused} when
   * the policy said no) or reported its copy. Does nothing for a block not handed to it.
   */
  void settled(int node, long block, boolean refused) {
    NodeLoads loads = nodes.get(node);
    HandedOut handedOut = loads == null ? null : loads.handedOut.remove(block);
    if (handedOut == null) {
      return;
    }
    settle(block, handedOut.dataSetId(), refused);
    forgetIfIdle(node, loads);
  }

  /** The node's slave is gone or registered anew: what it was to load is dropped. */
  void forgetNode(int node) {
    NodeLoads loads = nodes.remove(node);
    if (loads == null) {
      return;
    }
    for (Load load : loads.queued) {
      settle(load.block(), load.dataSetId(), false);
    }
    loads.handedOut.forEach((block, handedOut) -> settle(block, handedOut.dataSetId(), false));
    dropped.accept(loads.queued.size() + loads.handedOut.size());
  }

  /** Cancels the loads of a data set freed or forgotten; its progress goes too. */
  void cancel(int dataSetId) {
    if (progress.remove(dataSetId) == null) {
      return; // most data sets were never loaded: no walk
    }
    for (NodeLoads loads : nodes.values()) {
      for (Load load : loads.queued) {
        if (load.dataSetId() == dataSetId) {
          nodeOfBlock.remove(load.block());
        }
      }
      loads.queued.removeIf(load -> load.dataSetId() == dataSetId);
      loads.handedOut.forEach((block, handedOut) -> {
        if (handedOut.dataSetId() == dataSetId) {
          nodeOfBlock.remove(block);
        }
      });
      loads.handedOut.values().removeIf(handedOut -> handedOut.dataSetId() == dataSetId);
    }
    nodes.values().removeIf(NodeLoads::idle);
  }

  Progress progress(int dataSetId) {
    int[] counts = progress.get(dataSetId);
    return counts == null ? Progress.NONE : new Progress(counts[0], counts[1]);
  }

  private void settle(long block, int dataSetId, boolean refused) {
    nodeOfBlock.remove(block);
    int[] counts = progress.get(dataSetId);
    if (counts != null) {
      counts[0]--;
      if (refused) {
        counts[1]++;
      }
    }
  }

  private void forgetIfIdle(int node, NodeLoads loads) {
    if (loads.idle()) {
      nodes.remove(node);
    }
  }
}
