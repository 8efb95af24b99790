package org.mpcache.slave.store;

import java.io.OutputStream;
import java.nio.file.Path;

import org.apache.hadoop.io.IOUtils;

/** A fill's temporary files in its dir, open for writing until the fill closes them. */
public record FillFiles(CacheDir dir, Path data, Path meta, OutputStream dataOut,
    OutputStream metaOut) {
  /** Closes both files whatever state they are in (a fill given up). */
  public void closeQuietly() {
    IOUtils.cleanupWithLogger(null, dataOut, metaOut);
  }
}
