package org.mpcache.master;

import static org.apache.hadoop.metrics2.lib.Interns.info;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The cache master's metrics2 source in its NameNode, visible in JMX as
 * {@code Hadoop:service=NameNode,name=MpCacheMaster}: admissions and evictions by cause, counted
 * across failovers for as long as the NameNode runs.
 */
public final class MasterMetrics implements MetricsSource {
  public static final String SOURCE = "MpCacheMaster";

  private final MasterCounter.Values counters;

  private MasterMetrics(MasterCounter.Values counters) {
    this.counters = counters;
  }

  public static MasterMetrics register(MasterCounter.Values counters) {
    MasterMetrics metrics = new MasterMetrics(counters);
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
  }
}
