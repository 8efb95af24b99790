/**
 * The mpCache Master (the mpCache paper, "Accelerating MapReduce on Commodity Clusters: An
 * SSD-Empowered Approach", Fig. 3) as a NameNode plugin: {@link
 * org.mpcache.master.MpCacheMasterPlugin} runs it in the NameNode, serves its RPC endpoint,
 * checks every caller ({@link org.mpcache.master.MasterCallers}) and keeps one master while the
 * NameNode is active ({@link org.mpcache.master.ActiveMaster}). Its two components are the
 * sub-packages {@code arbitrator} (the Replace Arbitrator) and {@code spacemanager} (the Dynamic
 * Space Manager); {@code namespace} is its view of the NameNode, {@code status} its web page.
 */
package org.mpcache.master;
