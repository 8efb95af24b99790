package org.mpcache.slave.inputcache.store;

import java.io.IOException;

/** A call to an SSD dir's device failed: the SSD's trouble, never the HDD replica's. */
public final class SsdIoException extends IOException {
  private static final long serialVersionUID = 1L;

  SsdIoException(String dir, Throwable cause) {
    super(dir + ": " + cause, cause);
  }
}
