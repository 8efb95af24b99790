/**
 * The slave's link to the mpCache Master: registration, heartbeats with hits and copy changes,
 * admission requests, and the local decisions it falls back to while no master answers.
 */
package org.mpcache.slave.masterlink;
