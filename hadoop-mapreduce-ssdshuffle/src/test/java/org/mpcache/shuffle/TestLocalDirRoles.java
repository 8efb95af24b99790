package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.protocol.LocalizedSpaceProtocol;

class TestLocalDirRoles {
  @TempDir
  Path root;

  /** The application dir YARN makes under a NodeManager local dir. */
  private String appDir(Path nodeManagerDir) throws IOException {
    return Files.createDirectories(
        nodeManagerDir.resolve("usercache/alice/appcache/application_1_0001")).toString();
  }

  @Test
  void aDirUnderTheSlavesLocalizedDirIsOnTheSsd() throws IOException {
    Path ssd = Files.createDirectories(root.resolve("ssd"));
    Files.writeString(ssd.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), "127.0.0.1:4321\n");
    String hdd1 = appDir(root.resolve("hdd1"));
    String onSsd = appDir(ssd);
    String hdd2 = appDir(root.resolve("hdd2"));
    LocalDirRoles roles = LocalDirRoles.of(new String[] {hdd1, onSsd, hdd2});
    assertEquals(List.of(onSsd), roles.ssd());
    assertEquals(List.of(hdd1, hdd2), roles.hdd());
    assertEquals("127.0.0.1:4321", roles.slaveAddress());
  }

  /**
   * Tasks may write the NodeManager's local dirs: a link at the address file's name (to a file
   * holding an address) or a FIFO there (whose open would block) makes no dir the SSD's, and
   * neither is followed or opened.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aLinkOrAFifoAtTheAddressFilesNameIsNeitherFollowedNorOpened() throws Exception {
    Path elsewhere = Files.writeString(root.resolve("elsewhere"), "127.0.0.1:4321\n");
    Path linked = Files.createDirectories(root.resolve("linked"));
    Files.createSymbolicLink(linked.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), elsewhere);
    Path fifo = Files.createDirectories(root.resolve("fifo"));
    Process mkfifo = new ProcessBuilder("mkfifo",
        fifo.resolve(LocalizedSpaceProtocol.ADDRESS_FILE).toString()).start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo failed");

    LocalDirRoles roles = LocalDirRoles.of(new String[] {appDir(linked), appDir(fifo)});
    assertEquals(List.of(), roles.ssd());
    assertNull(roles.slaveAddress());
    for (Path dir : List.of(linked, fifo)) {
      assertFalse(LocalDirRoles.holdsAddressFile(dir), dir.toString());
      assertNull(LocalDirRoles.addressIn(dir), dir.toString());
    }
  }

  @Test
  void withoutASlaveEveryDirIsAnHddDir() throws IOException {
    String hdd = appDir(root.resolve("hdd"));
    Path emptyFile = Files.createDirectories(root.resolve("half-written"));
    Files.writeString(emptyFile.resolve(LocalizedSpaceProtocol.ADDRESS_FILE), "");
    String other = appDir(emptyFile);
    LocalDirRoles roles = LocalDirRoles.of(new String[] {hdd, other});
    assertEquals(List.of(), roles.ssd());
    assertEquals(List.of(hdd, other), roles.hdd());
    assertNull(roles.slaveAddress());
  }
}
