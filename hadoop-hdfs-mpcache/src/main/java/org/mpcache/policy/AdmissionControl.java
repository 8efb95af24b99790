package org.mpcache.policy;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The auxiliary facility of seeds/000 §3.3.1: every data set's access count and access distance
 * Δ (data-set accesses between its last two accesses; for a first access, all accesses before
 * it; back to back, a small guard value, {@link #BACK_TO_BACK_DISTANCE} by default). When the cache is full, a data set seen for
 * the first time is only recorded; a recorded one is admitted iff
 * {@code 1/(Size·Δ)} of it exceeds the sum of the same over the data sets it would evict.
 */
public final class AdmissionControl {
  public static final double BACK_TO_BACK_DISTANCE = 0.01;

  private final double backToBackDistance;
  private final Map<Integer, Record> records = new HashMap<>();
  private long accesses;

  public AdmissionControl() {
    this(BACK_TO_BACK_DISTANCE);
  }

  /** {@code backToBackDistance}: Δ of a data set read twice in a row (guards 1/Δ from Δ = 0). */
  public AdmissionControl(double backToBackDistance) {
    this.backToBackDistance = backToBackDistance;
  }

  private static final class Record {
    long accesses;
    long lastAccess;
    double distance;
  }

  /** Records one access of the data set (a job starting to read it). */
  public void accessed(DataSet dataSet) {
    accesses++;
    Record record = records.computeIfAbsent(dataSet.id(), id -> new Record());
    long between = record.accesses == 0 ? accesses - 1 : accesses - record.lastAccess - 1;
    record.distance = between == 0 ? backToBackDistance : between;
    record.accesses++;
    record.lastAccess = accesses;
  }

  /** True once the data set has been accessed before its current access. */
  public boolean recordedBefore(DataSet dataSet) {
    Record record = records.get(dataSet.id());
    return record != null && record.accesses > 1;
  }

  /** The data set's access distance Δ (its first-access value if never accessed). */
  public double distance(DataSet dataSet) {
    Record record = records.get(dataSet.id());
    return record == null ? Math.max(accesses, backToBackDistance) : record.distance;
  }

  /** {@code 1/(Size·Δ)}: how much caching the data set is worth. */
  public double worth(DataSet dataSet) {
    return 1.0 / (dataSet.blocks() * distance(dataSet));
  }

  /** The admission inequality, {@code worth(candidate) > Σ worth(victims)}. */
  public boolean admits(DataSet candidate, Collection<DataSet> victims) {
    double victimsWorth = 0;
    for (DataSet victim : victims) {
      victimsWorth += worth(victim);
    }
    return worth(candidate) > victimsWorth;
  }
}
