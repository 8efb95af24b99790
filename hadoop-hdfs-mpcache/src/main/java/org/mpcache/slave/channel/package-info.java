/**
 * The localized-space channel: the loopback RPC server task JVMs reach the Dynamic Space Tuner
 * through, whom it takes calls from, and the address files that let a task find it.
 */
package org.mpcache.slave.channel;
