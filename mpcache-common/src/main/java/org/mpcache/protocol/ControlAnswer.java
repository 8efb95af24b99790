package org.mpcache.protocol;

/**
 * A data set after an admin's pin, unpin, TTL, free or load: its path, its control, how many of
 * its blocks the master counts on some SSD (none after a free: the master forgets the copies at
 * once, and their slaves delete them at their next heartbeat), and its load's progress: blocks
 * still queued or being copied, and blocks the replacement policy refused.
 */
public record ControlAnswer(String dataSet, boolean pinned, long ttlMillis, int cachedBlocks,
    int totalBlocks, int loadingBlocks, int refusedBlocks) {
}
