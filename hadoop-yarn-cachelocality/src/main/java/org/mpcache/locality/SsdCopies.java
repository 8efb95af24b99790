package org.mpcache.locality;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Time;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MasterLinkSettings;
import org.mpcache.protocol.MasterProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which DataNodes hold blocks on SSD, as the cache master knows now. When no master answers the
 * answer is "unknown" and callers act as stock HDFS.
 */
public final class SsdCopies implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SsdCopies.class);
  /**
   * After no master answered, the answer is "unknown" this long before asking again: a listing
   * of many files must not wait out a connection timeout per file.
   */
  private static final long RETRY_MILLIS = 30_000;

  private final Configuration conf;
  private final MasterLinkSettings masters;
  private MasterProtocolClientSideTranslatorPB master;
  private boolean masterLost;
  private long nextTryMillis;

  public SsdCopies(Configuration conf) {
    this.conf = conf;
    MasterLinkSettings settings;
    try {
      settings = MasterLinkSettings.from(conf);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: SSD copies are not looked up: invalid setting {}", e.getMessage());
      settings = null;
    }
    this.masters = settings;
  }

  /**
   * The DataNode UUIDs holding each block on SSD, in {@code blockIds}' order, or null (said
   * once until a master answers again) when none answers.
   */
  public synchronized List<List<String>> holders(long[] blockIds) {
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
            .connect(conf, address, masters.timeoutMillis());
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
      LOG.warn("mpCache: no cache master answered ({}); block locations and read order are "
          + "stock until one does (asking again every {} s)", failures, RETRY_MILLIS / 1000);
    }
    return null;
  }

  private List<List<String>> answered(List<List<String>> onSsd) {
    if (masterLost) {
      masterLost = false;
      LOG.info("mpCache: the cache master answers again; SSD copies are looked up");
    }
    return onSsd;
  }

  @Override
  public synchronized void close() {
    if (master != null) {
      master.close();
      master = null;
    }
  }
}
