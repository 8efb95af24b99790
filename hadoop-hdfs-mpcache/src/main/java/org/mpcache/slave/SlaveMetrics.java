package org.mpcache.slave;

import static org.apache.hadoop.metrics2.lib.Interns.info;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.mpcache.slave.inputcache.InputCache;
import org.mpcache.slave.spacetuner.SpaceTuner;

/**
 * The cache slave's metrics2 source, one per DataNode ({@code MpCacheSlave-<datanode uuid>}),
 * visible in JMX as {@code Hadoop:service=DataNode,name=MpCacheSlave-<uuid>}.
 */
public final class SlaveMetrics implements MetricsSource {
  public static final String RECORD = "MpCacheSlave";

  private final InputCache cache;
  private final SpaceTuner tuner;
  private final String sourceName;

  private SlaveMetrics(InputCache cache, SpaceTuner tuner, String sourceName) {
    this.cache = cache;
    this.tuner = tuner;
    this.sourceName = sourceName;
  }

  /** {@code tuner} is null when intermediate data stays on the HDDs. */
  public static SlaveMetrics register(String datanodeUuid, InputCache cache, SpaceTuner tuner) {
    String name = sourceName(datanodeUuid);
    SlaveMetrics metrics = new SlaveMetrics(cache, tuner, name);
    DefaultMetricsSystem.instance().register(name, "mpCache DataNode cache slave", metrics);
    return metrics;
  }

  public static String sourceName(String datanodeUuid) {
    return RECORD + "-" + datanodeUuid;
  }

  public void unregister() {
    MetricsSystem system = DefaultMetricsSystem.instance();
    system.unregisterSource(sourceName);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    String disabledReason = cache.disabledReason();
    MetricsRecordBuilder record = collector.addRecord(RECORD).setContext("dfs")
        .tag(info("State", "enabled, or disabled: <reason>"),
            disabledReason == null ? "enabled" : "disabled: " + disabledReason)
        .tag(info("FailedDirs", "SSD dirs out of use, with why"),
            String.join("; ", cache.failedDirs()))
        .tag(info("Arbiter", "Who decides what the SSD holds: the cache master, or this slave"
            + " and why"), cache.arbiterState())
        .addGauge(info("Enabled", "1 while the cache serves reads, 0 when disabled"),
            disabledReason == null ? 1 : 0)
        .addGauge(info("UsedBytes", "Bytes the SSD copies take"), cache.usedBytes())
        .addGauge(info("CapacityBytes", "Cache capacity of the healthy SSD dirs"),
            cache.capacityBytes())
        .addGauge(info("CachedBlocks", "Blocks with a copy on the SSD"), cache.cachedBlocks())
        .addGauge(info("FillsUnderWay", "Copies being written and not yet committed or given"
            + " up"), cache.fillsUnderWay())
        .addGauge(info("LastScrubPassMillis", "The longest complete pass of the scrubber over an"
            + " SSD dir: rot in a copy held open by a short-circuit reader is found within it"),
            cache.lastScrubPassMillis())
        .addCounter(info("MasterHeartbeats", "Heartbeats sent to the cache master"),
            cache.masterHeartbeats());
    cache.counters().snapshot(record);
    if (tuner != null) {
      record.addGauge(info("LocalizedBytes", "Intermediate data on the SSD, and grants of "
              + "running task attempts"), tuner.localizedBytes())
          .addGauge(info("LocalizedCapacityBytes", "What intermediate data may fill now: the "
              + "Localized Cache and the pool units it holds"), tuner.localizedCapacityBytes())
          .addGauge(info("PoolUnitsLent", "Dynamic Pool units held by intermediate data"),
              tuner.lentUnits())
          .addGauge(info("LocalizedAttempts", "Task attempts holding live grants"),
              tuner.liveAttempts())
          .addGauge(info("LocalizedWrittenShare", "What share of their requests ended map "
              + "attempts wrote (compressed files are smaller than the sizes Hadoop asks for): "
              + "requests are charged that share"), tuner.writtenShare())
          .addCounter(info("LocalizedGrantedBytes", "Bytes task attempts were granted on the "
              + "SSD"), tuner.grantedBytes())
          .addCounter(info("LocalizedRefusedBytes", "Bytes task attempts asked for and wrote "
              + "to the HDDs"), tuner.refusedBytes())
          .addCounter(info("LocalizedCallsRefused", "Calls on the localized-space channel "
              + "refused: the caller could not act for the attempt or job it named"),
              tuner.channel().refusedCalls())
          .addGauge(info("LocalizedJobKeys", "Jobs whose channel keys the NodeManager's relay "
              + "handed over"), tuner.channel().jobsWithKeys())
          .addGauge(info("LocalizedUnreadablePaths", "Paths under the localized dirs the last "
              + "scan could not read; their files are not counted (grants of running attempts "
              + "are)"), tuner.unreadablePaths());
    }
  }
}
