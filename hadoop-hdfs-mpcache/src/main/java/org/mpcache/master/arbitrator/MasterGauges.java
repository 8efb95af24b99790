package org.mpcache.master.arbitrator;

/**
 * The master's figures as of its last heartbeat, for its metrics.
 *
 * @param trackedDataSets records of data sets in all its tables
 * @param cachedCopies block copies it counts on the slaves' SSDs, condemned ones included
 * @param pinnedCopies those of pinned data sets
 * @param pendingEvictions copies condemned but not handed to their slave yet (To_Del, freed)
 * @param recovering true until it has the whole picture
 */
public record MasterGauges(int trackedDataSets, int cachedCopies, int pinnedCopies,
    int pendingEvictions, boolean recovering) {
  public static final MasterGauges NONE = new MasterGauges(0, 0, 0, 0, false);
}
