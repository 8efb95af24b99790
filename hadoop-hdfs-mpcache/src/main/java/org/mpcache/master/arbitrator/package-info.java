/**
 * The Replace Arbitrator of the mpCache paper's master: decides which blocks the slaves may cache
 * and which whole data sets leave ({@link org.mpcache.master.arbitrator.ReplaceArbitrator}, driving
 * a policy of {@code org.mpcache.policy}), with the records it needs: the data sets
 * ({@link org.mpcache.master.arbitrator.DataSetTable}), the slaves
 * ({@link org.mpcache.master.arbitrator.SlaveRegistry}), the recovery gate, the admins' loads
 * and the recent evictions.
 */
package org.mpcache.master.arbitrator;
