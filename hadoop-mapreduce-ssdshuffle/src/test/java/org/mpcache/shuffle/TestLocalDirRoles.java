package org.mpcache.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
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
