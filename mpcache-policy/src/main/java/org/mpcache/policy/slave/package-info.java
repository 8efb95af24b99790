/**
 * The slave's own arithmetic, pure and free of Hadoop: the Dynamic Pool that moves SSD space
 * between input and localized data, and the LRU a slave decides by when no master answers.
 */
package org.mpcache.policy.slave;
