/**
 * The SSD dirs the input cache keeps its copies in: their layout, each copy's files, and the
 * lanes every call to a dir goes through, watched so that a hung device stalls no caller.
 */
package org.mpcache.slave.inputcache.store;
