package org.mpcache.slave.inputcache.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a dir's lane counts as a call to the device, which the hang watch times. */
@Timeout(30)
class TestSsdLane {
  @Test
  void aJobOnTheLaneIsNoCallButEachCallInItIs() throws Exception {
    SsdLane lane = new SsdLane("test");
    CountDownLatch inJob = new CountDownLatch(1);
    CountDownLatch inCall = new CountDownLatch(1);
    CountDownLatch endCall = new CountDownLatch(1);
    CountDownLatch endJob = new CountDownLatch(1);
    Future<Void> job = lane.submit(() -> {
      inJob.countDown();
      await(endJob);
      lane.track(() -> {
        inCall.countDown();
        await(endCall);
        return null;
      });
      return null;
    });
    inJob.await();
    // A long scan, say, between its calls: nothing is waiting for the device.
    assertEquals(0, lane.oldestInFlightMillis());
    endJob.countDown();
    inCall.await();
    GenericTestUtils.waitFor(() -> lane.oldestInFlightMillis() > 0, 1, 10_000, "a call timed");
    endCall.countDown();
    job.get();
    assertEquals(0, lane.oldestInFlightMillis());
    lane.shutdown();
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }

  @Test
  void whateverACallThrowsReachesTheCallerAsAnSsdError() {
    SsdLane lane = new SsdLane("test");
    SsdIoException unchecked = assertThrows(SsdIoException.class, () -> lane.track(() -> {
      throw new IllegalStateException("from a hook");
    }));
    assertTrue(unchecked.getMessage().startsWith("test: "), unchecked.getMessage());
    assertThrows(SsdIoException.class, () -> lane.track(() -> {
      throw new IOException("No space left on device");
    }));
    assertEquals(0, lane.oldestInFlightMillis());
    lane.shutdown();
  }
}
