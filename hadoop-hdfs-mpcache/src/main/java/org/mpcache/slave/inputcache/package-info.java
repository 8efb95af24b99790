/**
 * The input cache, the paper's slave-side "Cache Master": serves each client read of a block from
 * its SSD copy or the HDD replica ({@link org.mpcache.slave.inputcache.CacheReads}), fills copies
 * ({@link org.mpcache.slave.inputcache.Fills}) as the arbiter admits them, reclaims, adopts,
 * verifies and scrubs them; {@link org.mpcache.slave.inputcache.CopyIndex} is its only locked
 * state. {@link org.mpcache.slave.inputcache.CacheArbiter} is the seam to whoever decides what
 * the SSD holds: the slave alone, or the master through {@code org.mpcache.slave.masterlink}.
 */
package org.mpcache.slave.inputcache;
