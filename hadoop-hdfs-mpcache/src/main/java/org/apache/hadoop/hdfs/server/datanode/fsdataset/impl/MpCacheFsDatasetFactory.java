package org.apache.hadoop.hdfs.server.datanode.fsdataset.impl;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.mpcache.compat.HadoopRelease;
import org.mpcache.conf.SlaveSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code dfs.datanode.fsdataset.factory} that plugs the mpCache slave into a DataNode. With
 * {@code dfs.mpcache.enabled} false, or on a Hadoop release line other than the one mpCache was
 * built for ({@link HadoopRelease}), the DataNode gets the stock dataset, untouched.
 */
public class MpCacheFsDatasetFactory extends FsDatasetSpi.Factory<FsDatasetImpl> {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheFsDatasetFactory.class);

  @Override
  public FsDatasetImpl newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    if (!SlaveSettings.isEnabled(conf)) {
      return new FsDatasetImpl(datanode, storage, conf);
    }
    String mismatch = HadoopRelease.mismatch("the mpCache slave of this DataNode");
    if (mismatch != null) {
      LOG.error("{}: nothing is cached", mismatch);
      return new FsDatasetImpl(datanode, storage, conf);
    }
    return new MpCacheFsDataset(datanode, storage, conf);
  }
}
