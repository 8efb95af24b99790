package org.mpcache.policy;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The auxiliary facility of the mpCache paper §3.3.1: every data set's access count and access
 * distance Δ (data-set accesses between its last two accesses; for a first access, all accesses
 * before it; back to back, a small guard value, {@link #BACK_TO_BACK_DISTANCE} by default). When
 * the cache is full, a data set seen for the first time is only recorded; a recorded one is
 * admitted iff {@code 1/(Size·Δ)} of it exceeds the sum of the same over the data sets it would
 * evict.
 *
 * <p>Decided per data-set access (the paper admits data sets, not blocks): the first miss of an
 * access that needs room decides for the access's later misses, unless {@code perBlock} asks
 * for a decision at every miss (as this project first built it; kept for comparison).
 */
public final class AdmissionControl implements AdmissionFilter {
  public static final double BACK_TO_BACK_DISTANCE = 0.01;

  private final double backToBackDistance;
  private final boolean perBlock;
  private final Map<Integer, Record> records = new HashMap<>();
  private long accesses;

  public AdmissionControl() {
    this(BACK_TO_BACK_DISTANCE, false);
  }

  /**
   * {@code backToBackDistance}: Δ of a data set read twice in a row (guards 1/Δ from Δ = 0);
   * {@code perBlock}: decide at every miss instead of once per data-set access.
   */
  public AdmissionControl(double backToBackDistance, boolean perBlock) {
    this.backToBackDistance = backToBackDistance;
    this.perBlock = perBlock;
  }

  private static final class Record {
    long accesses;
    long lastAccess;
    double distance;
    /** The current access's decision, once made. */
    Boolean decision;
  }

  @Override
  public String name() {
    return perBlock ? "admission-per-block" : "admission";
  }

  /** Records one access of the data set (a job starting to read it). */
  @Override
  public void accessed(DataSet dataSet) {
    accesses++;
    Record record = records.computeIfAbsent(dataSet.id(), id -> new Record());
    long between = record.accesses == 0 ? accesses - 1 : accesses - record.lastAccess - 1;
    record.distance = between == 0 ? backToBackDistance : between;
    record.accesses++;
    record.lastAccess = accesses;
    record.decision = null;
  }

  @Override
  public void forget(int dataSetId) {
    records.remove(dataSetId);
  }

  @Override
  public int trackedDataSets() {
    return records.size();
  }

  /** A data set seen for the first time is only recorded. */
  @Override
  public boolean mayAdmit(DataSet candidate) {
    return recordedBefore(candidate);
  }

  /** A data set seen before its current access, worth more than its victims together. */
  @Override
  public boolean admits(DataSet candidate, List<DataSet> victims) {
    if (!recordedBefore(candidate)) {
      return false;
    }
    Record record = records.get(candidate.id());
    if (record.decision == null || perBlock) {
      record.decision = worthMore(candidate, victims);
    }
    return record.decision;
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
  public boolean worthMore(DataSet candidate, Collection<DataSet> victims) {
    double victimsWorth = 0;
    for (DataSet victim : victims) {
      victimsWorth += worth(victim);
    }
    return worth(candidate) > victimsWorth;
  }
}
