package org.mpcache.bench.device;

import static org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION.NATIVE_COPY;
import static org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION.READ;
import static org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION.TRANSFER;
import static org.apache.hadoop.hdfs.server.datanode.FileIoProvider.OPERATION.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MemoryCacheAwareFsDatasetFactory;
import org.junit.jupiter.api.Test;
import org.mpcache.slave.inputcache.FillThreads;

class TestDeviceEmulatingFileIoEvents {
  @Test
  void dataNodeIoIsChargedToWhatItIsFor() {
    assertEquals(IoCause.HDFS_READ, DeviceEmulatingFileIoEvents.causeOf(true, READ,
        "DataXceiver for client DFSClient_attempt_1 at /127.0.0.1:5000"));
    assertEquals(IoCause.HDFS_READ, DeviceEmulatingFileIoEvents.causeOf(true, TRANSFER,
        "DataXceiver"));
    assertEquals(IoCause.HDFS_WRITE, DeviceEmulatingFileIoEvents.causeOf(true, WRITE,
        "DataXceiver"));
    assertEquals(IoCause.HDFS_WRITE, DeviceEmulatingFileIoEvents.causeOf(true, NATIVE_COPY,
        FillThreads.WRITER + "0"));
    assertEquals(IoCause.CACHE_COPY, DeviceEmulatingFileIoEvents.causeOf(false, WRITE,
        FillThreads.WRITER + "3"));
    assertEquals(IoCause.CACHE_COPY, DeviceEmulatingFileIoEvents.causeOf(false, READ,
        "DataXceiver"));
  }

  @Test
  void aCacheReadingAReplicaAgainToCopyItIsAFillReRead() {
    for (String thread : new String[] {FillThreads.BACKGROUND + "2", FillThreads.WRITER + "15",
        MemoryCacheAwareFsDatasetFactory.LOADER_THREAD}) {
      assertEquals(IoCause.FILL_READ, DeviceEmulatingFileIoEvents.causeOf(true, READ, thread),
          thread);
    }
  }
}
