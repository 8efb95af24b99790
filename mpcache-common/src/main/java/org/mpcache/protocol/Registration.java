package org.mpcache.protocol;

/**
 * The master's answer to a registration: the block pool it arbitrates (a slave decides the
 * blocks of other pools alone) and the block size in which it counts a slave's capacity.
 */
public record Registration(String blockPoolId, long blockSizeBytes) {
}
