package org.mpcache.slave.store;

import java.io.IOException;
import java.io.OutputStream;

/** A file on an SSD dir being written, every call watched by the dir's lane. */
final class TrackedOutputStream extends OutputStream {
  private final OutputStream out;
  private final SsdLane lane;

  TrackedOutputStream(OutputStream out, SsdLane lane) {
    this.out = out;
    this.lane = lane;
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
