package org.mpcache.slave.inputcache;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The HDD replica's data stream for a reader whose pass over the block also fills its SSD copy:
 * one HDD read serves both. Any trouble with the copy only ends the fill; the reader sees exactly
 * what stock Hadoop would show it, and never waits for the SSD. A reader that skips, stops
 * before the end or outruns the SSD writer leaves the rest of the copy to the background
 * ({@link Fill#readerLeft}).
 */
final class FillingStream extends FilterInputStream {
  private Fill fill;

  FillingStream(InputStream hdd, Fill fill) {
    super(hdd);
    this.fill = fill;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int off, int len) throws IOException {
    int n = in.read(buffer, off, len);
    if (n > 0 && fill != null) {
      Fill current = fill;
      try {
        current.accept(buffer, off, n, false);
        if (current.complete()) {
          fill = null;
          current.finish(false);
        }
      } catch (Fill.WriterBehindException e) {
        fill = null; // also when finish() found the writer behind, with fill already cleared
        current.readerLeft(e.getMessage());
      } catch (IOException e) {
        fill = null;
        current.abort(e.getMessage());
      }
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    leave("the reader skipped part of the block");
    return in.skip(n);
  }

  @Override
  public void close() throws IOException {
    leave("the reader stopped before the end of the block");
    super.close();
  }

  private void leave(String why) {
    if (fill != null) {
      fill.readerLeft(why);
      fill = null;
    }
  }
}
