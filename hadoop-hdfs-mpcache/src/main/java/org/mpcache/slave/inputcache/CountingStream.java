package org.mpcache.slave.inputcache;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes a reader takes from a stream into one of the cache's counters. */
final class CountingStream extends FilterInputStream {
  private final CacheCounter.Values counters;
  private final CacheCounter counter;

  CountingStream(InputStream in, CacheCounter.Values counters, CacheCounter counter) {
    super(in);
    this.counters = counters;
    this.counter = counter;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      counters.increment(counter);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int off, int len) throws IOException {
    int n = in.read(buffer, off, len);
    if (n > 0) {
      counters.add(counter, n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    return in.skip(n);
  }
}
