package org.mpcache.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Samples the cluster while a job runs: the emulated HDDs' busy time, so the busy share of any
 * part of the job (its map phase, whose end is known only from the job's reports afterwards) can
 * be read from the samples, interpolated between them; and the room each mpCache slave leaves
 * input data, whose low point says how much the Dynamic Pool lent localized data during the job.
 */
final class JobSampler implements AutoCloseable {
  private static final long PERIOD_MILLIS = 100;

  /**
   * Running busy totals of the HDDs and each slave's room for input data in bytes, at a moment
   * (wall clock).
   */
  record Sample(long millis, long[] busyNanos, long[] inputRoomBytes) {
  }

  private final Supplier<long[]> busyNanos;
  private final Supplier<long[]> inputRoomBytes;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * Starts sampling {@code busyNanos} (one running total per HDD) and {@code inputRoomBytes} (one
   * figure per slave).
   */
  JobSampler(Supplier<long[]> busyNanos, Supplier<long[]> inputRoomBytes) {
    this.busyNanos = busyNanos;
    this.inputRoomBytes = inputRoomBytes;
    sample();
    thread = new Thread(this::loop, "job-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(PERIOD_MILLIS); // a sampling period, not a synchronisation
      } catch (InterruptedException e) {
        return;
      }
      sample();
    }
  }

  private void sample() {
    Sample sample =
        new Sample(System.currentTimeMillis(), busyNanos.get(), inputRoomBytes.get());
    synchronized (samples) {
      samples.add(sample);
    }
  }

  private List<Sample> samples() {
    synchronized (samples) {
      return new ArrayList<>(samples);
    }
  }

  /**
   * The busy share of the busiest HDD from {@code fromMillis} to {@code toMillis} (wall clock,
   * as a job's reports give its times); NaN when there are no HDDs or no such span.
   */
  double busiestShare(long fromMillis, long toMillis) {
    return busiestShare(samples(), fromMillis, toMillis);
  }

  /** Each slave's least room for input data over the samples; empty when none was sampled. */
  long[] leastInputRoom() {
    return leastInputRoom(samples());
  }

  static double busiestShare(List<Sample> samples, long fromMillis, long toMillis) {
    if (toMillis <= fromMillis || samples.isEmpty() || samples.get(0).busyNanos().length == 0) {
      return Double.NaN;
    }
    double busiest = 0;
    for (int device = 0; device < samples.get(0).busyNanos().length; device++) {
      double busy = busyAt(samples, device, toMillis) - busyAt(samples, device, fromMillis);
      busiest = Math.max(busiest, busy / ((toMillis - fromMillis) * 1e6));
    }
    return Math.min(1, busiest);
  }

  static long[] leastInputRoom(List<Sample> samples) {
    long[] least = samples.isEmpty() ? new long[0] : samples.get(0).inputRoomBytes().clone();
    for (Sample sample : samples) {
      Arrays.setAll(least, slave -> Math.min(least[slave], sample.inputRoomBytes()[slave]));
    }
    return least;
  }

  private static double busyAt(List<Sample> samples, int device, long millis) {
    Sample before = samples.get(0);
    for (Sample sample : samples) {
      if (sample.millis() >= millis) {
        long span = sample.millis() - before.millis();
        double share = span == 0 ? 1 : (millis - before.millis()) / (double) span;
        share = Math.max(0, Math.min(1, share));
        return before.busyNanos()[device]
            + share * (sample.busyNanos()[device] - before.busyNanos()[device]);
      }
      before = sample;
    }
    return before.busyNanos()[device];
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    sample();
  }
}
