package org.mpcache.slave.inputcache;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.LengthInputStream;
import org.apache.hadoop.util.DataChecksum;

/**
 * HDD replicas held in memory, with the checksum files HDFS would write for them (CRC32C per 512
 * bytes): the cache's parts run against it without a DataNode. Counts the opens of replica data,
 * and the fill writers' reads of checksum files.
 */
public final class FakeReplicas implements ReplicaSource {
  public static final String POOL = "BP-test";
  static final int BYTES_PER_CHECKSUM = 512;

  private record Replica(byte[] data, long generationStamp, StorageType storage) {
  }

  private final Map<BlockKey, Replica> replicas = new ConcurrentHashMap<>();
  private final AtomicInteger dataOpens = new AtomicInteger();
  private volatile boolean dataOpensFail;
  /** While set, opens of replica data wait for it (an HDD that has not answered yet). */
  private volatile CountDownLatch dataOpensHeld;
  private final AtomicInteger dataOpensWaiting = new AtomicInteger();
  private final AtomicInteger fillWriterMetaReads = new AtomicInteger();

  /** A finalized replica of {@code length} seeded random bytes on DISK; returns its key. */
  public BlockKey add(long blockId, int length) {
    return add(blockId, length, StorageType.DISK);
  }

  BlockKey add(long blockId, int length, StorageType storage) {
    byte[] data = new byte[length];
    new Random(blockId).nextBytes(data);
    BlockKey key = new BlockKey(POOL, blockId);
    replicas.put(key, new Replica(data, 1000, storage));
    return key;
  }

  /** The replica now has other bytes under a new generation stamp (an append, say). */
  void change(BlockKey key, byte[] data) {
    Replica old = replicas.get(key);
    replicas.put(key, new Replica(data, old.generationStamp() + 1, old.storage()));
  }

  byte[] data(BlockKey key) {
    return replicas.get(key).data().clone();
  }

  /** The block as a reader names it, at the replica's generation. */
  ExtendedBlock block(BlockKey key) {
    Replica replica = replicas.get(key);
    return new ExtendedBlock(key.blockPoolId(), key.blockId(), replica.data().length,
        replica.generationStamp());
  }

  /** Times a replica's data was opened (each is an HDD pass). */
  int dataOpens() {
    return dataOpens.get();
  }

  @Override
  public LiveReplica finalizedReplica(BlockKey key) {
    Replica replica = replicas.get(key);
    return replica == null ? null
        : new LiveReplica(replica.generationStamp(), replica.data().length, replica.storage());
  }

  /** Whether opening replica data fails from now on, as a failing HDD would. */
  void failDataOpens(boolean fail) {
    dataOpensFail = fail;
  }

  /** Opens of replica data wait from now on until {@link #releaseDataOpens}. */
  void holdDataOpens() {
    dataOpensHeld = new CountDownLatch(1);
  }

  void releaseDataOpens() {
    dataOpensHeld.countDown();
    dataOpensHeld = null;
  }

  /** Opens waiting for {@link #releaseDataOpens}. */
  int dataOpensWaiting() {
    return dataOpensWaiting.get();
  }

  @Override
  public InputStream openData(ExtendedBlock block, long offset) throws IOException {
    CountDownLatch held = dataOpensHeld;
    if (held != null) {
      dataOpensWaiting.incrementAndGet();
      try {
        held.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while the open was held");
      } finally {
        dataOpensWaiting.decrementAndGet();
      }
    }
    if (dataOpensFail) {
      throw new IOException("injected: cannot open the data of " + block);
    }
    Replica replica = replica(block);
    dataOpens.incrementAndGet();
    return new ByteArrayInputStream(replica.data(), (int) offset,
        replica.data().length - (int) offset);
  }

  /** Read requests fill writers made on checksum files (each one a trip to the HDD). */
  int fillWriterMetaReads() {
    return fillWriterMetaReads.get();
  }

  @Override
  public LengthInputStream openMeta(ExtendedBlock block) throws IOException {
    byte[] meta = metaFor(replica(block).data());
    return new LengthInputStream(new FilterInputStream(new ByteArrayInputStream(meta)) {
      @Override
      public int read() throws IOException {
        countRead();
        return super.read();
      }

      @Override
      public int read(byte[] buffer, int off, int len) throws IOException {
        countRead();
        return super.read(buffer, off, len);
      }
    }, meta.length);
  }

  private void countRead() {
    if (Thread.currentThread().getName().startsWith(FillThreads.WRITER)) {
      fillWriterMetaReads.incrementAndGet();
    }
  }

  private Replica replica(ExtendedBlock block) throws IOException {
    Replica replica = replicas.get(new BlockKey(block.getBlockPoolId(), block.getBlockId()));
    if (replica == null) {
      throw new IOException("no replica of " + block);
    }
    return replica;
  }

  /** The checksum file HDFS writes for {@code data}. */
  static byte[] metaFor(byte[] data) throws IOException {
    DataChecksum checksum =
        DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, BYTES_PER_CHECKSUM);
    int chunks = (data.length + BYTES_PER_CHECKSUM - 1) / BYTES_PER_CHECKSUM;
    ByteBuffer sums = ByteBuffer.allocate(chunks * checksum.getChecksumSize());
    checksum.calculateChunkedSums(ByteBuffer.wrap(data), sums);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlockMetadataHeader.writeHeader(new DataOutputStream(out), checksum);
    out.write(sums.array());
    return out.toByteArray();
  }
}
