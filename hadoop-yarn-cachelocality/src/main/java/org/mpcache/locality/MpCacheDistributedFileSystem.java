package org.mpcache.locality;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.HdfsBlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.ClientChoosingDistributedFileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.compat.HadoopRelease;
import org.mpcache.conf.MpCacheConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS as schedulers and readers should see it with mpCache, from the cache master's current
 * view. The block locations that input formats turn into split hosts name the DataNodes holding
 * each block on SSD, shown as {@link LocalityMode} says; readers try a block's replicas in
 * {@link ReplicaOrder} ({@link MpCacheDFSClient}). The {@code fs.hdfs.impl} of each job submitted
 * with the yarn-mpcache framework ({@link MpCacheClientProtocolProvider}); writes,
 * retries and replica failover are stock. When the master cannot be reached, or on a Hadoop
 * release line other than mpCache's, all is stock.
 */
public class MpCacheDistributedFileSystem extends ClientChoosingDistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheDistributedFileSystem.class);
  /** Set by YARN in every container: the host the task runs on, as its NodeManager names it. */
  private static final String NODE_HOST_ENV = "NM_HOST";

  private LocalityMode mode = LocalityMode.DEFAULT;
  private MpCacheDFSClient client;

  @Override
  protected DFSClient createClient(URI uri, Configuration conf, FileSystem.Statistics statistics)
      throws IOException {
    String mismatch = HadoopRelease.mismatch("the cache-aware HDFS client");
    if (mismatch != null) {
      LOG.warn(mismatch);
      return new DFSClient(uri, conf, statistics);
    }
    client = new MpCacheDFSClient(uri, conf, statistics, new SsdCopies(conf), localHost());
    return client;
  }

  /** The reader's host as DataNodes are named: its NodeManager's name in a container. */
  private static String localHost() {
    String nodeHost = System.getenv(NODE_HOST_ENV);
    if (nodeHost != null) {
      return nodeHost;
    }
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    try {
      mode = LocalityMode.of(conf.getTrimmed(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_KEY,
          LocalityMode.DEFAULT.value()));
    } catch (IllegalArgumentException e) {
      mode = LocalityMode.ANNOTATE;
      LOG.error("mpCache: {}; block locations keep their hosts (mode {})", e.getMessage(),
          mode.value());
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
    if (client == null) {
      return locations; // stock client: another Hadoop release line
    }
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
    List<List<String>> onSsd = client.ssdCopies().holders(blockIds);
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

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (client != null) {
        client.ssdCopies().close();
      }
    }
  }
}
