package org.mpcache.protocol;

/**
 * A data set after an admin's pin, unpin, TTL or free: its path, its control, and how many of its
 * blocks the master counts on some SSD (none after a free: the master forgets the copies at once,
 * and their slaves delete them at their next heartbeat).
 */
public record ControlAnswer(String dataSet, boolean pinned, long ttlMillis, int cachedBlocks,
    int totalBlocks) {
}
