package org.mpcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit-log reader on a small log in the NameNode's format, against a listing in the
 * Delimited format of {@code hdfs oiv}, at 1 MB blocks: /data/t holds a (2 blocks), b (1), c (a
 * byte: 1) and an empty _SUCCESS; /data/u holds x (3 blocks); /data/é holds y (1 block).
 */
class TestAuditLogTrace {
  private static final PolicySimulator.Settings CLUSTER =
      new PolicySimulator.Settings(4, 1, 1, 1.0, 1024, 1, 5);
  private static final String HEADER = "Path\tReplication\tModificationTime\tAccessTime\t"
      + "PreferredBlockSize\tBlocksCount\tFileSize\tNSQUOTA\tDSQUOTA\tPermission\tUserName\t"
      + "GroupName\n";
  private static final String APP = "callerContext=mr_attempt_1700000000000_0001_m_000000_0";

  @TempDir
  Path dir;

  /**
   * The application's maps read a and b of /data/t and all of /data/u; bob then reads all of
   * /data/t, and, ten minutes later, /data/é: another job.
   */
  @Test
  void eachJobReadsTheFilesItOpenedOfEachDirectory() throws IOException {
    Path log = write("audit.log",
        event("10:00:00,000", "true", "alice", "open", "/data/t/a", APP),
        event("10:00:01,000", "true", "alice", "open", "/data/t/b",
            APP.replace("m_000000", "m_000001")),
        event("10:00:01,500", "true", "alice", "open", "/data/u/x", APP),
        event("10:00:02,000", "true", "alice", "open", "/data/t/_SUCCESS", APP),
        event("10:00:02,000", "true", "alice", "getfileinfo", "/data/t", APP),
        event("10:00:03,000", "false", "bob", "open", "/data/t/a", null),
        "2026-12-07 10:00:03,500 INFO namenode.FSNamesystem: a line of another logger",
        event("10:00:04,000", "true", "bob", "open", "/data/t/a", null),
        event("10:00:04,000", "true", "bob", "open", "/data/t/b", null),
        event("10:00:04,100", "true", "bob", "open", "/data/t/c", null),
        event("10:00:05,000", "true", "bob", "open", "/data/t/zzz", null),
        event("10:00:06,000", "true", "alice", "open", "/data/t/a",
            APP.replace("m_000000_0", "r_000000_0")),
        event("10:10:00,000", "true", "bob", "open", "/data/\\u00e9/y", null));
    AuditLogTrace.Reading reading = AuditLogTrace.read(log, listing(), 60, CLUSTER);
    assertEquals(List.of("0:4 [0, 1, 2]", "1:3 whole", "0:4 whole", "2:1 whole"),
        jobs(reading.trace()));
    assertEquals(11, reading.opens());
    assertEquals(3, reading.jobs());
    assertEquals(1, reading.refused());
    assertEquals(1, reading.unlisted());
    assertEquals(1, reading.hidden());
    assertTrue(reading.describe().contains("11 opens in 3 jobs, 4 data-set accesses"),
        reading.describe());
  }

  /** With a gap of a second: b, 5 s after a, starts another job; c, 100 ms after b, is in it. */
  @Test
  void aPauseLongerThanTheGapStartsAnotherJob() throws IOException {
    Path log = write("audit.log",
        event("10:00:00,000", "true", "alice", "open", "/data/t/a", APP),
        event("10:00:05,000", "true", "alice", "open", "/data/t/b", APP),
        event("10:00:05,100", "true", "alice", "open", "/data/t/c", APP));
    AuditLogTrace.Reading reading = AuditLogTrace.read(log, listing(), 1, CLUSTER);
    assertEquals(List.of("0:4 [0, 1]", "0:4 [2, 3]"), jobs(reading.trace()));
  }

  /** However bob authenticated, his opens are his: one job, with a log4j2 stamp among them. */
  @Test
  void aUsersOpensAreOneJobHoweverHeAuthenticated() throws IOException {
    Path log = write("audit.log",
        event("10:00:00,000", "true", "bob", "open", "/data/t/a", null),
        event("10:00:01,000", "true", "bob@EXAMPLE.COM", "open", "/data/t/b", null)
            .replace("2026-12-07 ", "2026-12-07T"),
        event("10:00:02,000", "true", "bob/host.example.com@EXAMPLE.COM", "open", "/data/u/x",
            null));
    AuditLogTrace.Reading reading = AuditLogTrace.read(log, listing(), 60, CLUSTER);
    assertEquals(List.of("0:4 [0, 1, 2]", "1:3 whole"), jobs(reading.trace()));
    assertEquals(1, reading.jobs());
  }

  @Test
  void aListingOrLogInAnotherFormatIsNamed() throws IOException {
    Path log = write("audit.log", event("10:00:00,000", "true", "alice", "open", "/data/t/a",
        APP));
    Path notListing = write("listing.xml", "<?xml version=\"1.0\"?>");
    IOException e = assertThrows(IOException.class,
        () -> AuditLogTrace.read(log, notListing, 60, CLUSTER));
    assertTrue(e.getMessage().contains("not a Delimited listing of 'hdfs oiv'"), e.getMessage());
    Path jsonLayout = write("json.log", "{\"message\":\"allowed=true\tugi=alice\tcmd=open\t"
        + "src=/data/t/a\tproto=rpc\"}");
    e = assertThrows(IOException.class, () -> AuditLogTrace.read(jsonLayout, listing(), 60,
        CLUSTER));
    assertTrue(e.getMessage().contains("json.log:1: no time"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> AuditLogTrace.read(log, listing(), 0,
        CLUSTER));
  }

  @Test
  void pathsAreUnescapedAsTheNameNodeEscapedThemAndHiddenNamesAreFound() {
    assertEquals("/data/é/a\tb\\c", AuditLogTrace.unescapeJava("/data/\\u00e9/a\\tb\\\\c"));
    assertEquals("/a\\u12", AuditLogTrace.unescapeJava("/a\\u12"));
    assertTrue(AuditLogTrace.isHidden("/user/a/.staging/job_1/job.split"));
    assertTrue(AuditLogTrace.isHidden("/data/t/_SUCCESS"));
    assertFalse(AuditLogTrace.isHidden("/data/t/part-00000"));
  }

  private Path listing() throws IOException {
    return write("listing.tsv", HEADER
        + file("/", 0, true) + file("/data", 0, true) + file("/data/t", 0, true)
        + file("/data/t/a", 2 << 20, false) + file("/data/t/b", 1 << 20, false)
        + file("/data/t/c", 1, false) + file("/data/t/_SUCCESS", 0, false)
        + file("/data/u", 0, true) + file("/data/u/x", 3 << 20, false)
        + file("/data/é", 0, true) + file("/data/é/y", 1 << 20, false));
  }

  private static String file(String path, long size, boolean directory) {
    return String.join("\t", path, directory ? "0" : "3", "2026-12-01 10:00",
        "2026-12-01 10:00", directory ? "0" : "134217728", directory ? "0" : "1",
        Long.toString(size), directory ? "-1" : "0", directory ? "-1" : "0",
        (directory ? "d" : "-") + "rwxr-xr-x", "hdfs", "supergroup") + "\n";
  }

  /** An audit line as the NameNode's logger writes it. */
  private static String event(String time, String allowed, String user, String cmd, String src,
      String context) {
    return "2026-12-07 " + time + " INFO FSNamesystem.audit: allowed=" + allowed + "\tugi="
        + user + " (auth:SIMPLE)\tip=/10.0.0.1\tcmd=" + cmd + "\tsrc=" + src + "\tdst=null\t"
        + "perm=null\tproto=rpc" + (context == null ? "" : "\t" + context);
  }

  private Path write(String name, String... lines) throws IOException {
    return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
  }

  /** Each trace job as data set:blocks and the blocks it reads. */
  private static List<String> jobs(Trace trace) {
    List<String> jobs = new ArrayList<>();
    for (TraceJob job : trace) {
      jobs.add(job.dataSet().id() + ":" + job.dataSet().blocks() + " "
          + (job.readsWhole() ? "whole" : Arrays.toString(job.part())));
    }
    return jobs;
  }
}
