package org.mpcache.bench.harness;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

import org.mpcache.bench.device.IoCause;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A cluster a job stream runs on: one the harness starts ({@link BenchCluster}) or one that runs
 * already ({@link ExistingCluster}).
 */
interface StreamCluster extends AutoCloseable {
  /** The configuration the cluster runs, as the stream's results name it. */
  ClusterSetup setup();

  /** The configuration jobs are created from. */
  Configuration jobConf();

  DistributedFileSystem fs() throws IOException;

  /** The folder the data sets are in, {@code <source>/k<k>} each. */
  Path inputs();

  /** The folder the timed jobs write their outputs to, one subfolder each. */
  Path outputs();

  /**
   * DataNode transfer addresses that input blocks are placed on in turn (favored nodes); empty
   * when HDFS places them.
   */
  InetSocketAddress[] dataNodeAddresses() throws IOException;

  /** Turns emulated devices on (measuring) or off (loading data, checking); no-op if real. */
  void emulate(boolean on);

  /**
   * Bytes each mpCache slave served from SSD so far, by DataNode; empty when mpCache is off.
   * Counts every read that ended before the call.
   */
  Map<String, Long> bytesFromSsdByNode() throws IOException;

  /**
   * Waits until every mpCache slave's fills have ended and the master has had a heartbeat from
   * it since, so that the master has heard of every read before the next: the policy then sees
   * the reads in the order the simulator does (docs/benchmarks.md). No-op without mpCache, or
   * where the slaves cannot be seen.
   */
  void settleCaches() throws IOException;

  /** Localized bytes the slaves granted on their SSDs so far, summed; 0 when not known. */
  long localizedGrantedBytes();

  /** Localized bytes the slaves refused (tasks wrote them to HDD) so far; 0 when not known. */
  long localizedRefusedBytes();

  /**
   * Each mpCache slave's room for input data now, in bytes, in the order of {@link
   * #dataNodeAddresses}: less than its cache leaves input while the Dynamic Pool lends room to
   * localized data; empty when mpCache is off or the slaves cannot be seen.
   */
  long[] inputRoomBytes();

  /** Busy time of each emulated HDD so far, in nanoseconds; empty when not emulated. */
  long[] hddBusyNanos();

  /**
   * Busy time of the emulated HDDs so far, summed over them, for each {@link IoCause} (by its
   * ordinal), in nanoseconds; empty when not emulated.
   */
  long[] hddBusyNanosByCause();

  /** Whether every process of the cluster runs on this machine, so its CPU load is theirs. */
  boolean onThisMachine();

  @Override
  void close();
}
