/**
 * The Dynamic Space Manager of the mpCache paper's master: each slave's latest split of its SSD
 * between input data, the Dynamic Pool and localized data, and the data sets jobs read with their
 * sizes.
 */
package org.mpcache.master.spacemanager;
