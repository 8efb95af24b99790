package org.mpcache.slave.inputcache.store;

import java.io.IOException;
import java.nio.file.Path;

import org.apache.hadoop.io.IOUtils;

/** A fill's temporary files in its dir, open for writing until the fill closes them. */
public record FillFiles(CacheDir dir, Path data, Path meta, TrackedOutputStream dataOut,
    TrackedOutputStream metaOut) {
  /**
   * Forces both files to the device and closes them: a copy committed from them is whole after
   * a crash, whatever the device had cached.
   */
  public void syncAndClose() throws IOException {
    dataOut.sync();
    metaOut.sync();
    dataOut.close();
    metaOut.close();
  }

  /** Closes both files whatever state they are in (a fill given up). */
  public void closeQuietly() {
    IOUtils.cleanupWithLogger(null, dataOut, metaOut);
  }
}
