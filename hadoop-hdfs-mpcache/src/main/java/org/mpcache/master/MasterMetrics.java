package org.mpcache.master;

import static org.apache.hadoop.metrics2.lib.Interns.info;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableQuantiles;
import org.apache.hadoop.metrics2.lib.MutableRate;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.master.arbitrator.MasterCounter;
import org.mpcache.master.arbitrator.MasterGauges;

/**
 * The cache master's metrics2 source in its NameNode, visible in JMX as
 * {@code Hadoop:service=NameNode,name=MpCacheMaster} (docs/operations.md, "Observe"):
 * admissions and evictions by cause, counted across failovers for as long as the NameNode runs;
 * what the current master keeps, as of its last heartbeat; and per RPC call of each kind its
 * latency and the time it held the namesystem's lock, in microseconds, as rates (count and mean)
 * and as percentiles over each of {@code dfs.mpcache.master.metrics.percentiles.intervals}; and
 * each hold of the namesystem's lock (a call may take it several times), its wall time and its
 * thread's CPU time, as rates with their maximum and as percentiles.
 */
public final class MasterMetrics implements MetricsSource {
  public static final String SOURCE = "MpCacheMaster";

  /** The master's calls, timed by kind. */
  public enum Call {
    REGISTER, HEARTBEAT, REQUEST_ADMISSION, REPORT, CACHED_ON, SWITCH_MASTER, CONTROL, REFRESH;

    String metricName() {
      return StringUtils.camelize(name());
    }
  }

  private final MasterCounter.Values counters;
  private final Supplier<MasterGauges> gauges;
  private final MetricsRegistry registry = new MetricsRegistry(SOURCE).setContext("dfs");
  private final Map<Call, MutableRate> latency = new EnumMap<>(Call.class);
  private final Map<Call, MutableRate> lockHeld = new EnumMap<>(Call.class);
  private final Map<Call, List<MutableQuantiles>> latencyPercentiles = new EnumMap<>(Call.class);
  private final List<MutableQuantiles> lockPercentiles = new ArrayList<>();
  private final MutableRate lockHold;
  private final MutableRate lockHoldCpu;
  private final List<MutableQuantiles> lockHoldPercentiles = new ArrayList<>();
  private final List<MutableQuantiles> lockHoldCpuPercentiles = new ArrayList<>();
  /** Nanoseconds all calls held the namesystem's lock, for as long as the NameNode runs. */
  private final LongAdder lockHeldNanos = new LongAdder();
  /** True while this NameNode has a master that decides or recovers. */
  private final BooleanSupplier active;

  private MasterMetrics(MasterCounter.Values counters, Supplier<MasterGauges> gauges,
      BooleanSupplier active, int[] percentileIntervals) {
    this.counters = counters;
    this.gauges = gauges;
    this.active = active;
    for (Call call : Call.values()) {
      String name = call.metricName();
      latency.put(call, registry.newRate(name, "Latency of the master's " + name + " calls,"
          + " microseconds", false));
      lockHeld.put(call, registry.newRate(name + "NamesystemLock", "Time each " + name
          + " call held the namesystem's lock, microseconds", false));
      List<MutableQuantiles> percentiles = new ArrayList<>();
      for (int interval : percentileIntervals) {
        percentiles.add(registry.newQuantiles(name + interval + "s", "latency of " + name
            + " calls", "Ops", "Micros", interval));
      }
      latencyPercentiles.put(call, percentiles);
    }
    lockHold = registry.newRate("NamesystemLockHold", "Wall time of each hold of the"
        + " namesystem's lock by the master, microseconds", true);
    lockHoldCpu = registry.newRate("NamesystemLockHoldCpu", "CPU time of the holding thread in"
        + " each hold of the namesystem's lock by the master, microseconds", true);
    for (int interval : percentileIntervals) {
      lockPercentiles.add(registry.newQuantiles("NamesystemLock" + interval + "s",
          "time a call of the master held the namesystem's lock", "Calls", "Micros", interval));
      lockHoldPercentiles.add(registry.newQuantiles("NamesystemLockHold" + interval + "s",
          "wall time of a hold of the namesystem's lock", "Holds", "Micros", interval));
      lockHoldCpuPercentiles.add(registry.newQuantiles("NamesystemLockHoldCpu" + interval + "s",
          "CPU time of a hold of the namesystem's lock", "Holds", "Micros", interval));
    }
  }

  public static MasterMetrics register(MasterCounter.Values counters,
      Supplier<MasterGauges> gauges, BooleanSupplier active, int[] percentileIntervals) {
    MasterMetrics metrics = new MasterMetrics(counters, gauges, active, percentileIntervals);
    DefaultMetricsSystem.instance().register(SOURCE, "mpCache cache master", metrics);
    return metrics;
  }

  /** Records one call: how long it took and how long it held the namesystem's lock. */
  void served(Call call, long latencyNanos, long lockNanos) {
    long latencyMicros = latencyNanos / 1000;
    long lockMicros = lockNanos / 1000;
    lockHeldNanos.add(lockNanos);
    latency.get(call).add(latencyMicros);
    lockHeld.get(call).add(lockMicros);
    latencyPercentiles.get(call).forEach(percentiles -> percentiles.add(latencyMicros));
    lockPercentiles.forEach(percentiles -> percentiles.add(lockMicros));
  }

  /**
   * Records one hold of the namesystem's lock: its wall time and its thread's CPU time (negative
   * where the JVM cannot measure it: not recorded).
   */
  void lockHeld(long wallNanos, long cpuNanos) {
    long wallMicros = wallNanos / 1000;
    lockHold.add(wallMicros);
    lockHoldPercentiles.forEach(percentiles -> percentiles.add(wallMicros));
    if (cpuNanos >= 0) {
      long cpuMicros = cpuNanos / 1000;
      lockHoldCpu.add(cpuMicros);
      lockHoldCpuPercentiles.forEach(percentiles -> percentiles.add(cpuMicros));
    }
  }

  public void unregister() {
    DefaultMetricsSystem.instance().unregisterSource(SOURCE);
    latencyPercentiles.values().forEach(percentiles -> percentiles.forEach(
        MutableQuantiles::stop));
    Stream.of(lockPercentiles, lockHoldPercentiles, lockHoldCpuPercentiles)
        .forEach(percentiles -> percentiles.forEach(MutableQuantiles::stop));
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(SOURCE).setContext("dfs");
    counters.snapshot(record);
    record.addCounter(info("NamesystemLockHeldNanos", "Nanoseconds the master's calls held the"
        + " namesystem's lock, in all"), lockHeldNanos.sum());
    MasterGauges now = gauges.get();
    record.addGauge(info("Active", "1 while this NameNode runs a master (active NameNode, master"
        + " switched on), else 0"), active.getAsBoolean() ? 1 : 0)
        .addGauge(info("Recovering", "1 while the master rebuilds its picture from the slaves'"
            + " registrations and makes no decision"), now.recovering() ? 1 : 0)
        .addGauge(info("TrackedDataSets", "Records of data sets the master keeps in the"
            + " NameNode's heap (data-set table, rank, admission record, pass)"),
            now.trackedDataSets())
        .addGauge(info("CachedCopies", "Block copies the master counts on the slaves' SSDs"),
            now.cachedCopies())
        .addGauge(info("PinnedCopies", "Copies of pinned data sets"), now.pinnedCopies())
        .addGauge(info("PendingEvictions", "Copies condemned that their slaves have not been told"
            + " to delete yet (To_Del, freed data sets): handed over at their next heartbeat"),
            now.pendingEvictions());
    registry.snapshot(record, all);
  }
}
