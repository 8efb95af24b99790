package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.protocol.LocalizedSpaceProtocol;

/**
 * A task's local files on an SSD that fills as they are written: the task's local file system
 * ({@link SsdFailoverFileSystem#forTask}) moves each to an HDD dir and goes on, where Hadoop's
 * fails the write; the file keeps its name for reads, renames and deletes.
 */
class TestSsdFailoverFileSystem {
  private static final String APP = "usercache/alice/appcache/application_1_0001";
  private static final int DEVICE_MB = 1;

  private final File work = GenericTestUtils.getTestDir("ssd-failover");
  private SmallDevice ssd;
  private File ssdApp;
  private File hddApp;
  private JobConf conf;

  @BeforeEach
  void mountASmallSsd() throws Exception {
    FileUtil.fullyDelete(work);
    File ssdMount = new File(work, "ssd");
    ssd = SmallDevice.mount(ssdMount, DEVICE_MB);
    // The slave's address file at the top of the NodeManager local dir tells the SSD's dirs.
    Files.writeString(new File(ssdMount, LocalizedSpaceProtocol.ADDRESS_FILE).toPath(),
        "127.0.0.1:1\n");
    ssdApp = new File(ssdMount, APP);
    hddApp = new File(work, "hdd/" + APP);
    assertTrue(ssdApp.mkdirs() && hddApp.mkdirs());
    JobConf task = new JobConf(new Configuration(false));
    String[] localDirs = {ssdApp.getPath(), hddApp.getPath()};
    task.setStrings(MRConfig.LOCAL_DIR, localDirs);
    conf = SsdFailoverFileSystem.forTask(task, LocalDirRoles.of(localDirs));
  }

  @AfterEach
  void unmount() throws Exception {
    if (ssd != null) {
      ssd.close();
    }
  }

  private static byte[] random(int bytes) {
    byte[] data = new byte[bytes];
    new Random(bytes).nextBytes(data);
    return data;
  }

  private static void write(FileSystem fs, Path file, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(file)) {
      for (int off = 0; off < data.length; off += 4096) {
        out.write(data, off, Math.min(4096, data.length - off));
      }
    }
  }

  private static byte[] read(FileSystem fs, Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aSpillLargerThanTheRoomLeftOnTheSsdGoesOnOnHddUnderItsName() throws IOException {
    FileSystem raw = ((LocalFileSystem) FileSystem.getLocal(conf)).getRaw();
    byte[] spill = random(3 * DEVICE_MB << 20);
    Path named = new Path(ssdApp.getPath(), "attempt_1_0001_m_000000_0_spill_0.out");
    write(raw, named, spill);

    assertFalse(new File(ssdApp, named.getName()).exists(), "its part on the SSD was deleted");
    assertArrayEquals(spill, Files.readAllBytes(new File(hddApp, named.getName()).toPath()),
        "the whole file is on the HDD under the same path");
    assertArrayEquals(spill, read(raw, named), "read by its SSD name");
    assertEquals(spill.length, raw.getFileStatus(named).getLen());

    // A map's output renamed from its only spill, as the shuffle service finds it.
    Path output = new Path(ssdApp.getPath(), "output/attempt_1_0001_m_000000_0/file.out");
    assertTrue(raw.rename(named, output));
    File onHdd = new File(hddApp, "output/attempt_1_0001_m_000000_0/file.out");
    assertArrayEquals(spill, Files.readAllBytes(onHdd.toPath()));
    assertArrayEquals(spill, read(raw, output));
    assertTrue(raw.delete(output, false));
    assertFalse(onHdd.exists());

    // A reduce's shuffled map output, committed from its temporary name once written.
    Path temporary = new Path(ssdApp.getPath(), "output/attempt_1_0001_r_000000_0/map_0.out1");
    Path committed = new Path(ssdApp.getPath(), "output/attempt_1_0001_r_000000_0/map_0.out");
    write(raw, temporary, spill);
    assertTrue(raw.rename(temporary, committed));
    assertArrayEquals(spill, read(raw, committed));
    assertTrue(new File(hddApp, underApp(committed)).exists(), "committed beside its data");
    assertFalse(raw.exists(temporary));
  }

  @Test
  void aFileOnAFullSsdStartsOnHddAndAFileWithRoomStaysOnTheSsd() throws IOException {
    FileSystem fs = FileSystem.getLocal(conf);
    Path fits = new Path(ssdApp.getPath(), "attempt_1_0001_r_000000_0/intermediate.1");
    byte[] small = random(64 << 10);
    write(fs, fits, small);
    assertArrayEquals(small, Files.readAllBytes(new File(ssdApp, underApp(fits)).toPath()));

    ssd.fill("filler");
    Path late = new Path(ssdApp.getPath(), "output/attempt_1_0001_r_000000_0/map_1.out");
    byte[] mapOutput = random(200 << 10);
    write(fs, late, mapOutput);
    assertArrayEquals(mapOutput, read(fs, late), "checksummed, read by its name");
    assertTrue(new File(hddApp, underApp(late)).exists());
  }

  /** Hadoop's own local file system fails the write: the task attempt would fail. */
  @Test
  void hadoopsLocalFileSystemFailsTheWrite() throws IOException {
    ssd.fill("filler");
    FileSystem stock = new RawLocalFileSystem();
    stock.initialize(URI.create("file:///"), new Configuration(false));
    Path spill = new Path(ssdApp.getPath(), "attempt_1_0001_m_000000_0_spill_1.out");
    assertThrows(FSError.class, () -> write(stock, spill, random(200 << 10)));
  }

  /** Where {@code file}, named under the SSD's application dir, is under an application dir. */
  private String underApp(Path file) {
    return file.toUri().getPath().substring(ssdApp.getPath().length() + 1);
  }
}
