/**
 * The mpCache Slave of each DataNode (the mpCache paper, "Accelerating MapReduce on Commodity
 * Clusters: An SSD-Empowered Approach", Fig. 3), wired into the DataNode by
 * {@code MpCacheFsDataset}: the input cache ({@code inputcache}, the paper's slave-side "Cache
 * Master"), the Dynamic Space Tuner ({@code spacetuner}) with the channel task JVMs reach it
 * through ({@code channel}), and the link to the master ({@code masterlink}); this package
 * holds their metrics.
 */
package org.mpcache.slave;
