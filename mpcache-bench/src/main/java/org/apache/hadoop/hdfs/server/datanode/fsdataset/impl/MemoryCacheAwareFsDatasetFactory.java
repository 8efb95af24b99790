package org.apache.hadoop.hdfs.server.datanode.fsdataset.impl;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.bench.device.DeviceEmulatingFileIoEvents;

/**
 * The dataset of the in-memory baseline (Hadoop's centralized cache): stock, except that the
 * bytes of a block the DataNode holds in its cache (mmapped; in real clusters also mlocked)
 * cost no device time, as RAM serves them. Loading a block into the cache reads it once from
 * its device first: Hadoop's loader maps the file, which the device hook cannot see.
 */
public final class MemoryCacheAwareFsDatasetFactory extends FsDatasetSpi.Factory<FsDatasetImpl> {
  @Override
  public FsDatasetImpl newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    return new MemoryCacheAwareFsDataset(datanode, storage, conf);
  }

  /** The thread that reads blocks into the in-memory cache (a second read of each). */
  public static final String LOADER_THREAD = "memory-cache-load";
  private static final AtomicLong BYTES_FROM_MEMORY = new AtomicLong();
  private static final Executor LOADER = Executors.newSingleThreadExecutor(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat(LOADER_THREAD).build());

  /** Bytes all DataNodes of this JVM served from their caches so far. */
  public static long bytesFromMemory() {
    return BYTES_FROM_MEMORY.get();
  }

  private static final class MemoryCacheAwareFsDataset extends FsDatasetImpl {
    MemoryCacheAwareFsDataset(DataNode datanode, DataStorage storage, Configuration conf)
        throws IOException {
      super(datanode, storage, conf);
    }

    @Override
    public void cache(String bpid, long[] blockIds) {
      LOADER.execute(() -> {
        for (long id : blockIds) {
          try (InputStream in = super.getBlockInputStream(new ExtendedBlock(bpid, id), 0)) {
            in.transferTo(OutputStream.nullOutputStream());
          } catch (IOException e) {
            // Hadoop's loader meets the same error and reports the block as not cached.
          }
        }
        super.cache(bpid, blockIds);
      });
    }

    @Override
    public InputStream getBlockInputStream(ExtendedBlock b, long seekOffset) throws IOException {
      InputStream in = super.getBlockInputStream(b, seekOffset);
      return cacheManager.isCached(b.getBlockPoolId(), b.getBlockId()) ? new FromMemory(in) : in;
    }
  }

  /** A block stream whose reads are served from RAM. */
  private static final class FromMemory extends FilterInputStream {
    FromMemory(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = DeviceEmulatingFileIoEvents.fromMemory(() -> in.read());
      BYTES_FROM_MEMORY.addAndGet(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = DeviceEmulatingFileIoEvents.fromMemory(() -> in.read(b, off, len));
      BYTES_FROM_MEMORY.addAndGet(Math.max(n, 0));
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      return in.skip(n);
    }
  }
}
