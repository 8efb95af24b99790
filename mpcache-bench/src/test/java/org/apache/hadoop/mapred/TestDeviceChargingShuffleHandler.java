package org.apache.hadoop.mapred;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import javax.crypto.SecretKey;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.security.SecureShuffleUtils;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleHeader;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpcache.bench.device.Device;
import org.mpcache.bench.device.DeviceProfile;
import org.mpcache.bench.device.EmulatedDevices;

/**
 * A reducer's fetch from the shuffle server (Hadoop's ShuffleHandler with its Netty pipeline,
 * map outputs in a NodeManager local dir laid out as YARN lays them out), on emulated devices.
 * It also guards the Hadoop internals the server relies on: that the stock
 * {@code ShuffleChannelHandler.channelActive} adds each connection to its context's channel
 * group, with the stock handler in the connection's pipeline, and that {@code sendMapOutput}
 * sends each partition.
 */
@Timeout(60)
class TestDeviceChargingShuffleHandler {
  private static final String USER = System.getProperty("user.name");
  private static final ApplicationId APP = ApplicationId.newInstance(1111111111111L, 1);
  private static final String JOB = "job_1111111111111_0001";
  private static final List<String> MAPS = List.of("attempt_1111111111111_0001_m_000001_0",
      "attempt_1111111111111_0001_m_000002_0");
  private static final int REDUCE = 1;
  /** Bytes of partition {@code p} of every map: several transfer buffers each. */
  private static final int[] PARTITION_BYTES = {70_000, 300_000, 50_000};

  @Test
  void partitionsAreReadOffTheDeviceOfTheirLocalDirBeforeTheyAreSent() throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "shuffle").toFile();
    File hddRoot = new File(dir, "hdd");
    File localDir = new File(hddRoot, "nm-local0");
    Configuration conf = new Configuration();
    conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
    conf.set(EmulatedDevices.DIR_KEY, new File(dir, "devices").getPath());
    // Slow enough that a partition sent before its device read ends is caught in the act.
    DeviceProfile slow = DeviceProfile.parse("10MB/s,0ms,1024KB");
    EmulatedDevices.describe(conf, "hdd", slow, List.of(hddRoot));
    EmulatedDevices.describe(conf, "ssd", slow, List.of(new File(dir, "ssd")));
    EmulatedDevices devices = EmulatedDevices.of(conf);
    devices.setEnabled(true);
    Device hdd = devices.deviceFor(localDir.getPath());
    Device ssd = devices.deviceFor(new File(dir, "ssd").getPath());
    byte[][] fetchedPartitions = new byte[MAPS.size()][];
    for (int m = 0; m < MAPS.size(); m++) {
      fetchedPartitions[m] = writeMapOutput(localDir, MAPS.get(m), m)[REDUCE];
    }

    DeviceChargingShuffleHandler shuffle = new DeviceChargingShuffleHandler();
    shuffle.setAuxiliaryLocalPathHandler(new OneLocalDir(localDir));
    shuffle.init(conf);
    shuffle.start();
    try {
      SecretKey jobKey = addJob(shuffle);
      URL url = new URL("http://127.0.0.1:"
          + shuffle.getConfig().get(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY)
          + "/mapOutput?job=" + JOB + "&reduce=" + REDUCE + "&map=" + String.join(",", MAPS));
      HttpURLConnection fetch = request(url, jobKey);
      assertEquals(HttpURLConnection.HTTP_OK, fetch.getResponseCode());
      long sentBytes = 0;
      try (DataInputStream in = new DataInputStream(fetch.getInputStream())) {
        for (int m = 0; m < MAPS.size(); m++) {
          int length = fetchedPartitions[m].length;
          ShuffleHeader header = new ShuffleHeader();
          header.readFields(in);
          assertArrayEquals(bytes(new ShuffleHeader(MAPS.get(m), length, length, REDUCE)),
              bytes(header), "map " + m + "'s header");
          sentBytes += length;
          assertTrue(hdd.totals().bytes() >= sentBytes, "map " + m + "'s partition arrived "
              + "before its device read it: " + hdd.totals().bytes() + " of " + sentBytes
              + " bytes read (none: the stock handler sent it; has ShuffleChannelHandler's "
              + "channelActive or sendMapOutput changed?)");
          byte[] received = new byte[length];
          in.readFully(received);
          assertArrayEquals(fetchedPartitions[m], received, "map " + m + "'s partition");
        }
      }
      assertEquals(sentBytes, hdd.totals().bytes(),
          "the device of the local dir read every byte sent, once");
      assertEquals(0, ssd.totals().bytes(), "a device not holding the map outputs");
    } finally {
      shuffle.stop();
    }
  }

  /**
   * Writes a map's {@code file.out} and {@code file.out.index} where the NodeManager keeps them,
   * partition p of {@link #PARTITION_BYTES}[p] random bytes; returns the partitions.
   */
  private static byte[][] writeMapOutput(File localDir, String attempt, int seed)
      throws IOException {
    File output = new File(localDir, "usercache/" + USER + "/appcache/" + APP + "/output/"
        + attempt);
    assertTrue(output.mkdirs());
    Random random = new Random(seed);
    byte[][] partitions = new byte[PARTITION_BYTES.length][];
    SpillRecord index = new SpillRecord(partitions.length);
    try (OutputStream data = new FileOutputStream(new File(output, "file.out"))) {
      long offset = 0;
      for (int p = 0; p < partitions.length; p++) {
        partitions[p] = new byte[PARTITION_BYTES[p]];
        random.nextBytes(partitions[p]);
        data.write(partitions[p]);
        index.putIndex(new IndexRecord(offset, partitions[p].length, partitions[p].length), p);
        offset += partitions[p].length;
      }
    }
    index.writeToFile(new Path(new File(output, "file.out.index").getPath()), new JobConf());
    return partitions;
  }

  private static byte[] bytes(ShuffleHeader header) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    header.write(out);
    return Arrays.copyOf(out.getData(), out.getLength());
  }

  /** Registers the job as the NodeManager does when its first container starts. */
  private static SecretKey addJob(ShuffleHandler shuffle) throws IOException {
    Token<JobTokenIdentifier> token = new Token<>("identifier".getBytes(StandardCharsets.UTF_8),
        "password".getBytes(StandardCharsets.UTF_8), new Text(USER), new Text("shuffle"));
    shuffle.initializeApplication(new ApplicationInitializationContext(USER, APP,
        ShuffleHandler.serializeServiceData(token)));
    return JobTokenSecretManager.createSecretKey(token.getPassword());
  }

  /** A fetch as a reducer's Fetcher sends it. */
  private static HttpURLConnection request(URL url, SecretKey jobKey) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    connection.setRequestProperty(ShuffleHeader.HTTP_HEADER_NAME,
        ShuffleHeader.DEFAULT_HTTP_HEADER_NAME);
    connection.setRequestProperty(ShuffleHeader.HTTP_HEADER_VERSION,
        ShuffleHeader.DEFAULT_HTTP_HEADER_VERSION);
    connection.setRequestProperty(SecureShuffleUtils.HTTP_HEADER_URL_HASH,
        SecureShuffleUtils.hashFromString(SecureShuffleUtils.buildMsgFrom(url), jobKey));
    return connection;
  }

  /** The NodeManager's local dirs, reduced to one. */
  private record OneLocalDir(File dir) implements AuxiliaryLocalPathHandler {
    @Override
    public Path getLocalPathForRead(String path) {
      return new Path(dir.getAbsolutePath(), path);
    }

    @Override
    public Path getLocalPathForWrite(String path) {
      return getLocalPathForRead(path);
    }

    @Override
    public Path getLocalPathForWrite(String path, long size) {
      return getLocalPathForRead(path);
    }

    @Override
    public Iterable<Path> getAllLocalPathsForRead(String path) {
      return List.of(getLocalPathForRead(path));
    }
  }
}
