package org.mpcache.master;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterKeyEffects;
import org.mpcache.conf.MasterKeyEffects.Effect;
import org.mpcache.conf.MasterSettings;
import org.mpcache.protocol.RefreshAnswer;

/**
 * The master's settings as its NameNode's configuration files last gave them, and their refresh
 * ({@code hdfs mpcacheadmin -refresh}): each changed key is applied where it can change without
 * a NameNode restart ({@link MasterKeyEffects}). Fresh masters are built with {@link #settings()}.
 */
final class MasterRefresh {
  private final InetSocketAddress nameNodeRpc;
  /** The master's keys the RPC server and the metrics source were made with. */
  private final Map<String, String> started;
  /** The master's keys as last applied. */
  private Map<String, String> applied;
  private volatile MasterSettings settings;

  /**
   * @throws InvalidSettingException naming the key whose value the master cannot use
   */
  MasterRefresh(Configuration conf, InetSocketAddress nameNodeRpc)
      throws InvalidSettingException {
    this.nameNodeRpc = nameNodeRpc;
    this.settings = MasterSettings.from(conf, nameNodeRpc);
    this.started = MasterKeyEffects.values(conf);
    this.applied = started;
  }

  MasterSettings settings() {
    return settings;
  }

  /**
   * Takes {@code reread}'s values: a key the running master reads at each use is handed to it,
   * one its policy or tables are built from renews it (the next call makes a fresh master), one
   * read at start is only reported.
   *
   * @throws InvalidSettingException naming the key whose new value the master cannot use; then
   *     nothing changes
   */
  synchronized RefreshAnswer refresh(Configuration reread, ActiveMaster master)
      throws InvalidSettingException {
    MasterSettings next = MasterSettings.from(reread, nameNodeRpc);
    Map<String, String> values = MasterKeyEffects.values(reread);
    Map<Effect, List<String>> changed = MasterKeyEffects.changed(applied, values);
    List<String> needRestart = MasterKeyEffects.changed(started, values).get(Effect.NEED_RESTART);
    applied = values;
    settings = next;
    if (!changed.get(Effect.FRESH_MASTER).isEmpty()) {
      master.renew();
    } else if (!changed.get(Effect.APPLIED).isEmpty()) {
      master.reconfigure(next);
    }
    return new RefreshAnswer(changed.get(Effect.APPLIED), changed.get(Effect.FRESH_MASTER),
        needRestart);
  }
}
