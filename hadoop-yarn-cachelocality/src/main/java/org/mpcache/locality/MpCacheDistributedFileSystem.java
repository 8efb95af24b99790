package org.mpcache.locality;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.HdfsBlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.util.Time;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS as schedulers should see it with mpCache: the block locations that input formats turn
 * into split hosts name the DataNodes holding each block on SSD, as the cache master knows now,
 * shown as {@link LocalityMode} says. Set cluster-wide as {@code fs.hdfs.impl}; reads, writes and
 * replica failover are stock. When the master cannot be reached the locations are stock too.
 */
public class MpCacheDistributedFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheDistributedFileSystem.class);
  /**
   * After no master answered, locations stay stock this long before asking again: a listing of
   * many files must not wait out a connection timeout per file.
   */
  private static final long RETRY_MILLIS = 30_000;

  private LocalityMode mode = LocalityMode.DEFAULT;
  private MasterLinkSettings masters;
  private MasterProtocolClientSideTranslatorPB master;
  private boolean masterLost;
  private long nextTryMillis;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    try {
      mode = LocalityMode.of(conf.getTrimmed(LocalityMode.KEY, LocalityMode.DEFAULT.value()));
    } catch (IllegalArgumentException e) {
      mode = LocalityMode.ANNOTATE;
      LOG.error("mpCache: {}; block locations keep their hosts (mode {})", e.getMessage(),
          mode.value());
    }
    try {
      masters = MasterLinkSettings.from(conf);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: block locations are stock: invalid setting {}", e.getMessage());
      masters = null;
    }
  }

  @Override
  public BlockLocation[] getFileBlockLocations(Path p, long start, long len)
      throws IOException {
    return withSsdCopies(super.getFileBlockLocations(p, start, len));
  }

  /** Every listed file's locations as {@link #getFileBlockLocations} gives them. */
  @Override
  protected RemoteIterator<LocatedFileStatus> listLocatedStatus(Path p, PathFilter filter)
      throws IOException {
    RemoteIterator<LocatedFileStatus> listed = super.listLocatedStatus(p, filter);
    return new RemoteIterator<>() {
      @Override
      public boolean hasNext() throws IOException {
        return listed.hasNext();
      }

      @Override
      public LocatedFileStatus next() throws IOException {
        LocatedFileStatus status = listed.next();
        if (!status.isFile()) {
          return status;
        }
        // The listing's locations lost the replicas' DataNode ids: ask again for this file.
        return new LocatedFileStatus(status,
            getFileBlockLocations(status.getPath(), 0, status.getLen()));
      }
    };
  }

  /** The locations with the SSD copies shown, or as they are if the master does not answer. */
  private BlockLocation[] withSsdCopies(BlockLocation[] locations) throws IOException {
    List<Integer> known = new ArrayList<>();
    for (int i = 0; i < locations.length; i++) {
      if (locations[i] instanceof HdfsBlockLocation) {
        known.add(i);
      }
    }
    if (known.isEmpty()) {
      return locations;
    }
    long[] blockIds = known.stream().mapToLong(i -> ((HdfsBlockLocation) locations[i])
        .getLocatedBlock().getBlock().getBlockId()).toArray();
    List<List<String>> onSsd = cachedOn(blockIds);
    if (onSsd == null) {
      return locations;
    }
    BlockLocation[] shown = locations.clone();
    for (int k = 0; k < known.size(); k++) {
      int i = known.get(k);
      LocatedBlock block = ((HdfsBlockLocation) locations[i]).getLocatedBlock();
      List<String> replicaNodes =
          Arrays.stream(block.getLocations()).map(DatanodeInfo::getDatanodeUuid).toList();
      shown[i] = new HdfsBlockLocation(CacheLocalityView.apply(locations[i], replicaNodes,
          new HashSet<>(onSsd.get(k)), mode), block);
    }
    return shown;
  }

  /** The master's answer, or null (said once until it answers again) when none answers. */
  private synchronized List<List<String>> cachedOn(long[] blockIds) {
    if (masters == null || !masters.hasMaster() || Time.monotonicNow() < nextTryMillis) {
      return null;
    }
    StringBuilder failures = new StringBuilder();
    if (master != null) {
      try {
        return answered(master.cachedOn(blockIds));
      } catch (IOException e) {
        failures.append(e.getMessage()).append("; ");
        master.close();
        master = null;
      }
    }
    for (InetSocketAddress address : masters.masters()) {
      try {
        MasterProtocolClientSideTranslatorPB client = MasterProtocolClientSideTranslatorPB
            .connect(getConf(), address, masters.timeoutMillis());
        try {
          List<List<String>> onSsd = client.cachedOn(blockIds);
          master = client;
          return answered(onSsd);
        } catch (IOException e) {
          client.close();
          throw e;
        }
      } catch (IOException e) {
        failures.append(address).append(": ").append(e.getMessage()).append("; ");
      }
    }
    nextTryMillis = Time.monotonicNow() + RETRY_MILLIS;
    if (!masterLost) {
      masterLost = true;
      LOG.warn("mpCache: no cache master answered ({}); block locations are stock until one "
          + "does (asking again every {} s)", failures, RETRY_MILLIS / 1000);
    }
    return null;
  }

  private List<List<String>> answered(List<List<String>> onSsd) {
    if (masterLost) {
      masterLost = false;
      LOG.info("mpCache: the cache master answers again; block locations show SSD copies");
    }
    return onSsd;
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      super.close();
    } finally {
      if (master != null) {
        master.close();
        master = null;
      }
    }
  }
}
