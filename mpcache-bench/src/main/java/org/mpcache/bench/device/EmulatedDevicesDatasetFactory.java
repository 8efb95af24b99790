package org.mpcache.bench.device;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetFactory;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * {@code dfs.datanode.fsdataset.factory} of emulated runs: installs the device hook in the
 * DataNode, then makes the dataset the run compares ({@value #DELEGATE_KEY}: stock Hadoop's by
 * default, mpCache's, or the in-memory baseline's), so every configuration gets the same devices.
 */
public final class EmulatedDevicesDatasetFactory extends FsDatasetSpi.Factory<FsDatasetSpi<?>> {
  public static final String DELEGATE_KEY = "mpcache.emulation.dataset.factory";

  @Override
  @SuppressWarnings("unchecked")
  public FsDatasetSpi<?> newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    DeviceEmulatingFileIoEvents.install(datanode.getFileIoProvider(), conf);
    Class<?> delegate = conf.getClass(DELEGATE_KEY, FsDatasetFactory.class);
    FsDatasetSpi.Factory<FsDatasetSpi<?>> factory =
        (FsDatasetSpi.Factory<FsDatasetSpi<?>>) ReflectionUtils.newInstance(delegate, conf);
    return factory.newInstance(datanode, storage, conf);
  }
}
