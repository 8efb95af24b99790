package org.mpcache.slave.inputcache.store;

import java.io.Closeable;
import java.io.RandomAccessFile;

import org.apache.hadoop.io.IOUtils;

/**
 * A copy's files opened for one read. They stay readable whatever happens to the copy
 * afterwards (evicted, dropped): an open file is the bytes it was when opened.
 */
public record CopyFiles(CachedCopy copy, RandomAccessFile data, RandomAccessFile meta)
    implements Closeable {
  @Override
  public void close() {
    IOUtils.closeStream(data);
    IOUtils.closeStream(meta);
  }
}
