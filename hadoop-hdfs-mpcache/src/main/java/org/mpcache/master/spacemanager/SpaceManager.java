package org.mpcache.master.spacemanager;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.mpcache.protocol.MasterReport.DataSetHistory;
import org.mpcache.protocol.SlaveUsage;

/**
 * The Dynamic Space Manager's records (the mpCache paper §3.1): each slave's latest input / pool /
 * localized usage, and the data sets jobs have read with their sizes, most recent first. Each
 * slave's Dynamic Space Tuner resizes its own pool
 * ({@code org.mpcache.slave.spacetuner.SpaceTuner}); the master sees the result as the node's
 * input capacity. Job types are not visible to the master
 * and are not recorded.
 */
public final class SpaceManager {
  private final int historySize;
  private final Map<String, SlaveUsage> usage = new HashMap<>();
  private final LinkedHashMap<String, Seen> history = new LinkedHashMap<>(16, 0.75f, true);

  private static final class Seen {
    int blocks;
    long accesses;
    long lastAccessMillis;
  }

  public SpaceManager(int historySize) {
    this.historySize = historySize;
  }

  public void usage(String datanodeUuid, SlaveUsage latest) {
    usage.put(datanodeUuid, latest);
  }

  public SlaveUsage usage(String datanodeUuid) {
    return usage.get(datanodeUuid);
  }

  public void forget(String datanodeUuid) {
    usage.remove(datanodeUuid);
  }

  /** A job started reading the data set. */
  public void accessed(String path, int blocks, long nowMillis) {
    if (historySize == 0) {
      return;
    }
    Seen seen = history.computeIfAbsent(path, p -> new Seen());
    seen.blocks = blocks;
    seen.accesses++;
    seen.lastAccessMillis = nowMillis;
    if (history.size() > historySize) {
      history.remove(history.keySet().iterator().next());
    }
  }

  public List<DataSetHistory> history(long nowMillis) {
    List<DataSetHistory> newestFirst = new ArrayList<>(history.size());
    history.forEach((path, seen) -> newestFirst.add(new DataSetHistory(path, seen.blocks,
        seen.accesses, nowMillis - seen.lastAccessMillis)));
    Collections.reverse(newestFirst);
    return newestFirst;
  }
}
