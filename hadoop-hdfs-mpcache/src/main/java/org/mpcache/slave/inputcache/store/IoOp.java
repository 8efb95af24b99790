package org.mpcache.slave.inputcache.store;

import java.io.IOException;

/** One call to an SSD dir's device. */
@FunctionalInterface
public interface IoOp<T> {
  T run() throws IOException;
}
