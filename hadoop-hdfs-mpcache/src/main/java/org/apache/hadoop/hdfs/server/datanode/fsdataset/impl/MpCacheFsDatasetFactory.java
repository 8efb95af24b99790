package org.apache.hadoop.hdfs.server.datanode.fsdataset.impl;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.mpcache.conf.SlaveSettings;

/**
 * The {@code dfs.datanode.fsdataset.factory} that plugs the mpCache slave into a DataNode. With
 * {@code dfs.mpcache.enabled} false the DataNode gets the stock dataset, untouched.
 */
public class MpCacheFsDatasetFactory extends FsDatasetSpi.Factory<FsDatasetImpl> {
  @Override
  public FsDatasetImpl newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    if (!SlaveSettings.isEnabled(conf)) {
      return new FsDatasetImpl(datanode, storage, conf);
    }
    return new MpCacheFsDataset(datanode, storage, conf);
  }
}
