package org.mpcache.conf;

import static org.mpcache.conf.MpCacheConfigKeys.*;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.hadoop.conf.Configuration;

/**
 * What a refresh ({@code hdfs mpcacheadmin -refresh}) does with each key the master reads
 * (docs/configuration.md, "Changing keys without a restart"). Pure: compares two configurations.
 */
public final class MasterKeyEffects {
  private MasterKeyEffects() {
  }

  /** What becomes of a changed key. */
  public enum Effect {
    /** The running master takes it: it is read at each use, not built into the master's tables. */
    APPLIED,
    /** The policy or the master's tables are built from it: a fresh master takes it. */
    FRESH_MASTER,
    /** The RPC server or the metrics source were made with it when the NameNode started. */
    NEED_RESTART
  }

  private static final Map<String, Effect> EFFECTS = Map.ofEntries(
      Map.entry(DFS_MPCACHE_MASTER_INCLUDE_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_EXCLUDE_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_EXPIRY_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_DATASET_IDLE_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_DATASET_MAX_TRACKED_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_PIN_SHARE_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_LOAD_IN_FLIGHT_KEY, Effect.APPLIED),
      Map.entry(DFS_MPCACHE_MASTER_POLICY_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_FULL_BONUS_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_BACK_TO_BACK_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_DATASET_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_RECOVERY_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_HISTORY_KEY, Effect.FRESH_MASTER),
      Map.entry(DFS_MPCACHE_MASTER_BIND_HOST_KEY, Effect.NEED_RESTART),
      Map.entry(DFS_MPCACHE_MASTER_HANDLERS_KEY, Effect.NEED_RESTART),
      Map.entry(DFS_MPCACHE_MASTER_PERCENTILES_KEY, Effect.NEED_RESTART));

  /** The effect of a change of {@code key}; null for a key the master does not read. */
  public static Effect of(String key) {
    if (key.equals(DFS_MPCACHE_MASTER_ADDRESS_KEY)
        || key.startsWith(DFS_MPCACHE_MASTER_ADDRESS_KEY + ".")) { // with HA, one per NameNode
      return Effect.NEED_RESTART;
    }
    return EFFECTS.get(key);
  }

  /**
   * The values of the master's keys in {@code conf}, trimmed, unset ones left out: a snapshot
   * that, unlike a Configuration, no later default resource reloads.
   */
  public static Map<String, String> values(Configuration conf) {
    Map<String, String> values = new TreeMap<>();
    for (String key : EFFECTS.keySet()) {
      String value = conf.getTrimmed(key);
      if (value != null) {
        values.put(key, value);
      }
    }
    conf.getPropsWithPrefix(DFS_MPCACHE_MASTER_ADDRESS_KEY).forEach((suffix, value) -> {
      String key = DFS_MPCACHE_MASTER_ADDRESS_KEY + suffix;
      if (of(key) != null) { // the address, or one per NameNode; not dfs.mpcache.master.addressX
        values.put(key, value.trim());
      }
    });
    return values;
  }

  /** The master's keys whose values differ from {@code before} to {@code after}, by effect. */
  public static Map<Effect, List<String>> changed(Map<String, String> before,
      Map<String, String> after) {
    TreeSet<String> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    Map<Effect, List<String>> changed = new EnumMap<>(Effect.class);
    for (Effect effect : Effect.values()) {
      changed.put(effect, new ArrayList<>());
    }
    for (String key : keys) {
      if (!Objects.equals(before.get(key), after.get(key))) {
        changed.get(of(key)).add(key);
      }
    }
    return changed;
  }
}
