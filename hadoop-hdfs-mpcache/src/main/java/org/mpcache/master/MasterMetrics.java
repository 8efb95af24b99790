package org.mpcache.master;

import static org.apache.hadoop.metrics2.lib.Interns.info;

import java.util.function.IntSupplier;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The cache master's metrics2 source in its NameNode, visible in JMX as
 * {@code Hadoop:service=NameNode,name=MpCacheMaster}: admissions and evictions by cause, counted
 * across failovers for as long as the NameNode runs, and what the current master keeps.
 */
public final class MasterMetrics implements MetricsSource {
  public static final String SOURCE = "MpCacheMaster";

  private final MasterCounter.Values counters;
  /** Records of data sets the current master keeps (0 without one). */
  private final IntSupplier trackedDataSets;

  private MasterMetrics(MasterCounter.Values counters, IntSupplier trackedDataSets) {
    this.counters = counters;
    this.trackedDataSets = trackedDataSets;
  }

  public static MasterMetrics register(MasterCounter.Values counters,
      IntSupplier trackedDataSets) {
    MasterMetrics metrics = new MasterMetrics(counters, trackedDataSets);
    DefaultMetricsSystem.instance().register(SOURCE, "mpCache cache master", metrics);
    return metrics;
  }

  public void unregister() {
    DefaultMetricsSystem.instance().unregisterSource(SOURCE);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(SOURCE).setContext("dfs");
    for (MasterCounter counter : MasterCounter.values()) {
      record.addCounter(info(counter.metricName(), counter.description()),
          counters.get(counter));
    }
    record.addGauge(info("TrackedDataSets", "Records of data sets the master keeps in the"
        + " NameNode's heap (data-set table, rank, admission record, pass)"),
        trackedDataSets.getAsInt());
  }
}
