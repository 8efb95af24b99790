package org.mpcache.slave.inputcache.store;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import org.apache.hadoop.hdfs.server.datanode.FileIoProvider;

/** A file on an SSD dir being written, every call watched by the dir's lane. */
public final class TrackedOutputStream extends OutputStream {
  private final FileOutputStream out;
  private final SsdLane lane;
  private final FileIoProvider io;

  TrackedOutputStream(FileOutputStream out, SsdLane lane, FileIoProvider io) {
    this.out = out;
    this.lane = lane;
    this.io = io;
  }

  /** Forces what was written to the device. */
  void sync() throws IOException {
    lane.track(() -> {
      io.sync(null, out);
      return null;
    });
  }

  @Override
  public void write(int b) throws IOException {
    lane.track(() -> {
      out.write(b);
      return null;
    });
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    lane.track(() -> {
      out.write(b, off, len);
      return null;
    });
  }

  @Override
  public void flush() throws IOException {
    lane.track(() -> {
      out.flush();
      return null;
    });
  }

  @Override
  public void close() throws IOException {
    lane.track(() -> {
      out.close();
      return null;
    });
  }
}
