package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The tarball {@code mvn package} built: unpacked, it lays out as an overlay of an Apache Hadoop
 * 3.5 install, its checksum file matches, and its shell profile, sourced as Hadoop's scripts source
 * it (here against stubs of the hadoop_* functions it calls), adds exactly its own jars and the
 * {@code hdfs mpcacheadmin} subcommand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OverlayIT {
  private final File tarball = new File(System.getProperty("mpcache.dist.tarball"));
  private final String version = System.getProperty("mpcache.dist.version");
  private final File unpacked = new File("target/overlay-it");

  @BeforeAll
  void unpack() throws Exception {
    assertTrue(tarball.isFile(), tarball + " is missing: run the integration tests after package");
    deleteTree(unpacked.toPath());
    assertTrue(unpacked.mkdirs());
    run(List.of("tar", "-xzf", tarball.getAbsolutePath(), "-C", unpacked.getPath(),
        "--strip-components=1"));
  }

  @Test
  void unpacksIntoHadoopsLayoutAddingOnlyItsOwnFolders() {
    for (String jar : List.of("mpcache-policy", "mpcache-common", "hadoop-hdfs-mpcache",
        "hadoop-mapreduce-ssdshuffle", "hadoop-yarn-cachelocality")) {
      assertFile("share/hadoop/mpcache/" + jar + "-" + version + ".jar");
    }
    assertFile("share/hadoop/mpcache/jobs/mpcache-puma-" + version + ".jar");
    assertFile("libexec/shellprofile.d/hadoop-mpcache.sh");
    for (String site : List.of("hdfs", "mapred", "yarn")) {
      assertFile("etc/hadoop/mpcache-samples/" + site + "-site.xml");
    }
    assertFile("share/doc/hadoop-mpcache/operations.md");
    // Nothing of Hadoop's own is replaced: no file directly in etc/hadoop, no other share/hadoop
    // folder, nothing in bin or sbin.
    assertEquals(List.of("mpcache-samples"), names(new File(unpacked, "etc/hadoop")));
    assertEquals(List.of("doc", "hadoop"), names(new File(unpacked, "share")));
    assertEquals(List.of("mpcache"), names(new File(unpacked, "share/hadoop")));
    assertEquals(List.of("etc", "libexec", "share"), names(unpacked));
    // Plugins only on the classpath: no Hadoop jar or dependency came along.
    assertEquals(6, names(new File(unpacked, "share/hadoop/mpcache")).size(),
        names(new File(unpacked, "share/hadoop/mpcache")).toString());
  }

  @Test
  void checksumFileMatchesTheTarball() throws Exception {
    File sha = new File(tarball.getPath() + ".sha512");
    String line = Files.readString(sha.toPath(), StandardCharsets.US_ASCII).trim();
    String digest = HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-512").digest(Files.readAllBytes(tarball.toPath())));
    assertEquals(digest, line.split("\\s+")[0]);
    assertTrue(line.endsWith(tarball.getName()), line);
  }

  @Test
  void profileAddsItsJarsToEveryCommandAndTheAdminSubcommandToHdfs() throws Exception {
    String home = unpacked.getCanonicalPath();
    assertEquals(List.of(
        "profile mpcache",
        "subcommand mpcacheadmin admin",
        "classpath " + home + "/share/hadoop/mpcache/*",
        "class org.mpcache.tools.MpCacheAdmin"), sourceProfile("hdfs", home));
    // Other commands get the jars, not the subcommand.
    assertEquals(List.of(
        "profile mpcache",
        "classpath " + home + "/share/hadoop/mpcache/*",
        "no subcommand"), sourceProfile("yarn", home));
  }

  @Test
  void profileAddsNothingWhenItsJarsAreGone() throws Exception {
    File empty = new File("target/overlay-it-empty");
    deleteTree(empty.toPath());
    assertTrue(new File(empty, "libexec/shellprofile.d").mkdirs());
    List<String> calls = sourceProfile("mapred", empty.getCanonicalPath());
    assertTrue(calls.stream().noneMatch(call -> call.startsWith("classpath")), calls.toString());
  }

  /**
   * Sources the unpacked profile in bash with HADOOP_HOME={@code home}, with stubs of the functions
   * Hadoop's hadoop-functions.sh provides, then calls what bin/{@code command} would: each
   * profile's classpath function, and {@code <command>_subcommand_mpcacheadmin} when the profile
   * defined it. Returns the calls the stubs saw.
   */
  private List<String> sourceProfile(String command, String home) throws Exception {
    String script = String.join("\n",
        "set -eu",
        "hadoop_add_profile() { echo \"profile $1\"; PROFILES=\"${PROFILES:-} $1\"; }",
        "hadoop_add_classpath() { echo \"classpath $1\"; }",
        "hadoop_add_subcommand() { echo \"subcommand $1 $2\"; }",
        "HADOOP_SHELL_EXECNAME=" + command,
        "HADOOP_HOME='" + home + "'",
        "source '" + new File(unpacked, "libexec/shellprofile.d/hadoop-mpcache.sh")
            .getCanonicalPath() + "'",
        "for p in $PROFILES; do _${p}_hadoop_classpath; done",
        "if declare -f " + command + "_subcommand_mpcacheadmin > /dev/null; then",
        "  " + command + "_subcommand_mpcacheadmin; echo \"class $HADOOP_CLASSNAME\"",
        "else echo 'no subcommand'; fi");
    return run(List.of("bash", "-c", script));
  }

  private void assertFile(String path) {
    assertTrue(new File(unpacked, path).isFile(), path + " is not in the tarball");
  }

  private static List<String> names(File dir) {
    String[] names = dir.list();
    assertTrue(names != null, dir + " is not a folder");
    return java.util.Arrays.stream(names).sorted().toList();
  }

  private static List<String> run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), command + " did not end");
    assertEquals(0, process.exitValue(), command + " failed:\n" + output);
    return output.lines().toList();
  }

  private static void deleteTree(Path root) throws IOException {
    if (Files.exists(root)) {
      try (var paths = Files.walk(root)) {
        for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }
}
