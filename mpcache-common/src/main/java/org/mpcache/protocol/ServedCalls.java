package org.mpcache.protocol;

import java.io.IOException;

import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/** Server-side translators run calls here: an IOException goes back as a remote exception. */
final class ServedCalls {
  private ServedCalls() {
  }

  /** A call of the served protocol. */
  @FunctionalInterface
  interface Call<T> {
    T call() throws IOException;
  }

  static <T> T served(Call<T> call) throws ServiceException {
    try {
      return call.call();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }
}
