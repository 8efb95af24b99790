package org.mpcache.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.mpcache.protocol.AdmissionAnswer;
import org.mpcache.protocol.HeartbeatAnswer;
import org.mpcache.protocol.MpCacheMasterProtocol;
import org.mpcache.protocol.SlaveUsage;

/**
 * One cache slave as the master sees it, a thread speaking the real {@code MpCacheMasterProtocol}
 * for a simulated DataNode: it registers, then at each heartbeat interval asks admission for some
 * blocks it holds a replica of and sends a heartbeat with hits on its copies, misses on its
 * replicas and the copies that came and went; it times each call.
 */
final class SimulatedSlave implements Runnable {
  /** The calls it times. */
  enum Call {
    REGISTER, HEARTBEAT, REQUEST_ADMISSION
  }

  /** What each slave does per heartbeat interval, and its SSD's room in blocks. */
  record Load(long heartbeatMillis, int admissions, int hits, int misses, int capacityBlocks,
      long blockSizeBytes) {
  }

  private static final long[] NONE = new long[0];

  private final String uuid;
  private final String hostname;
  private final long[] replicas;
  private final MpCacheMasterProtocol master;
  private final Load load;
  private final long deadlineNanos;
  private final Random random;
  private final Map<Call, Samples> latencies = new EnumMap<>(Call.class);
  private final Map<Call, Integer> failures = new EnumMap<>(Call.class);
  private final List<Long> cached = new ArrayList<>();
  /** Copies admitted since the last heartbeat, which reports them cached. */
  private final Set<Long> appeared = new HashSet<>();
  private long hitCount;
  private long missCount;

  SimulatedSlave(String uuid, String hostname, long[] replicas, MpCacheMasterProtocol master,
      Load load, long deadlineNanos, long seed) {
    this.uuid = uuid;
    this.hostname = hostname;
    this.replicas = replicas;
    this.master = master;
    this.load = load;
    this.deadlineNanos = deadlineNanos;
    this.random = new Random(seed);
    for (Call call : Call.values()) {
      latencies.put(call, new Samples());
      failures.put(call, 0);
    }
  }

  /** Latencies of its calls of {@code call} that answered, nanoseconds. */
  Samples latencies(Call call) {
    return latencies.get(call);
  }

  /** Its calls of {@code call} that failed (a timeout, an error). */
  int failures(Call call) {
    return failures.get(call);
  }

  @Override
  public void run() {
    register();
    // Slaves start their heartbeats spread over an interval, as DataNodes started apart do.
    long next = System.nanoTime() + (long) (random.nextDouble() * load.heartbeatMillis() * 1e6);
    while (next < deadlineNanos) {
      try {
        Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      next += load.heartbeatMillis() * 1_000_000;
      for (int i = 0; i < load.admissions() && replicas.length > 0; i++) {
        requestAdmission(replicas[random.nextInt(replicas.length)]);
      }
      heartbeat();
    }
  }

  private SlaveUsage usage() {
    long capacity = load.capacityBlocks() * load.blockSizeBytes();
    return new SlaveUsage(capacity, cached.size() * load.blockSizeBytes(), 0, 0, hitCount,
        missCount, cached.size(), "ok", 0, 0);
  }

  private void register() {
    timed(Call.REGISTER, () -> master.register(uuid, hostname, usage(),
        cached.stream().mapToLong(Long::longValue).toArray()));
  }

  private void requestAdmission(long block) {
    if (cached.contains(block)) {
      return; // a hit: reported with the next heartbeat
    }
    AdmissionAnswer answer = timed(Call.REQUEST_ADMISSION,
        () -> master.requestAdmission(uuid, block, load.blockSizeBytes(), NONE));
    if (answer != null && answer.verdict() == AdmissionAnswer.Verdict.ADMIT) {
      drop(answer.evict());
      cached.add(block);
      appeared.add(block);
    }
  }

  private void heartbeat() {
    long[] hits = new long[Math.min(load.hits(), cached.size())];
    for (int i = 0; i < hits.length; i++) {
      hits[i] = cached.get(random.nextInt(cached.size()));
    }
    long[] misses = new long[replicas.length == 0 ? 0 : load.misses()];
    for (int i = 0; i < misses.length; i++) {
      misses[i] = replicas[random.nextInt(replicas.length)];
    }
    hitCount += hits.length;
    missCount += misses.length;
    long[] cameNow = appeared.stream().mapToLong(Long::longValue).toArray();
    HeartbeatAnswer answer = timed(Call.HEARTBEAT,
        () -> master.heartbeat(uuid, usage(), hits, misses, cameNow, NONE));
    if (answer == null) {
      return;
    }
    appeared.clear();
    if (answer.reregister()) {
      register();
    } else {
      drop(answer.evict());
    }
  }

  /** The master condemned these copies: they are deleted, and not reported as removed. */
  private void drop(long[] evict) {
    for (long block : evict) {
      cached.remove(block);
      appeared.remove(block);
    }
  }

  /** One call of the protocol. */
  @FunctionalInterface
  private interface MasterCall<T> {
    T call() throws IOException;
  }

  /** Makes the call, timing it; null when it failed. */
  private <T> T timed(Call kind, MasterCall<T> call) {
    long start = System.nanoTime();
    try {
      T answer = call.call();
      latencies.get(kind).add(System.nanoTime() - start);
      return answer;
    } catch (IOException e) {
      failures.merge(kind, 1, Integer::sum);
      return null;
    }
  }
}
