package org.mpcache.slave.spacetuner;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who holds localized space on this node: the grants of running task attempts, held while the
 * attempt renews its lease, and what the last scan of the localized dirs found, by attempt. A
 * running attempt counts for the larger of what it was granted and what it has written; an
 * ended or silent one (finished, killed, failed) for the files it left, until YARN deletes its
 * application's dirs. What an ended map attempt left measures what share of its requests was
 * written ({@link WrittenShare}). Pure bookkeeping: the tuner brings the clock and the scans.
 */
public final class LocalizedLedger {
  /** Files under the localized dirs that name no task attempt. */
  static final String NO_ATTEMPT = "";
  /** Ended attempts kept for measuring while scans fail (each scan takes them all). */
  private static final int MAX_ENDED = 10_000;
  /** What a map attempt's id holds, and a reduce attempt's does not. */
  private static final String MAP_ATTEMPT = "_m_";
  /** The job part of an attempt id: attempt_&lt;cluster&gt;_&lt;job&gt;_&lt;m|r&gt;_... */
  private static final Pattern ATTEMPT_JOB = Pattern.compile("attempt_(\\d+_\\d+)_[mr]_");

  private final long leaseMillis;
  private final Map<String, Lease> leases = new HashMap<>();
  /** Map attempts to measure: what they asked for, and how many scans had begun at their end. */
  private final Map<String, Ended> ended = new HashMap<>();
  private final WrittenShare writtenShare = new WrittenShare();
  /** Scans begun so far: an attempt that ended before a scan began left its files whole. */
  private long scansBegun;
  private Map<String, Long> onDisk = Map.of();
  /** The bytes of {@link #onDisk} by job. */
  private Map<String, Long> onDiskByJob = Map.of();
  /** See {@link #devicesMeasured}; no room before the first measurement. */
  private long deviceRoomBytes;
  private long deviceInputBytes;

  private static final class Lease {
    final String job;
    /** What the attempt is charged ({@link WrittenShare#charge}). */
    long grantedBytes;
    /** What it asked for. */
    long askedBytes;
    int grants;
    /** A request of the attempt was refused since its first grant. */
    boolean refusedSome;
    long expiresMillis;

    Lease(String job) {
      this.job = job;
    }
  }

  private record Ended(long askedBytes, long endedInScan) {
  }

  LocalizedLedger(long leaseMillis) {
    this.leaseMillis = leaseMillis;
  }

  long leaseMillis() {
    return leaseMillis;
  }

  /** What a request for {@code bytes} is charged, by what attempts wrote of their requests. */
  long charge(long bytes) {
    return writtenShare.charge(bytes);
  }

  double writtenShare() {
    return writtenShare.share();
  }

  /**
   * The attempt asked for {@code askedBytes} more and was granted them, charged
   * {@code chargedBytes}; its lease starts again.
   */
  void granted(String attempt, long chargedBytes, long askedBytes, long nowMillis) {
    Lease lease = leases.computeIfAbsent(attempt, a -> new Lease(jobOf(a)));
    lease.grantedBytes += chargedBytes;
    lease.askedBytes += askedBytes;
    lease.grants++;
    lease.expiresMillis = nowMillis + leaseMillis;
  }

  /** A request of the attempt was refused (its file went to HDD). */
  void refused(String attempt) {
    Lease lease = leases.get(attempt);
    if (lease != null) {
      lease.refusedSome = true;
    }
  }

  /** The attempt runs on: false when it holds no live grant. */
  boolean renew(String attempt, long nowMillis) {
    expire(nowMillis);
    Lease lease = leases.get(attempt);
    if (lease == null) {
      return false;
    }
    lease.expiresMillis = nowMillis + leaseMillis;
    return true;
  }

  /** The job id (job_&lt;cluster&gt;_&lt;job&gt;) of an attempt id; null if it names none. */
  public static String jobOf(String attempt) {
    Matcher job = ATTEMPT_JOB.matcher(attempt);
    return job.lookingAt() ? "job_" + job.group(1) : null;
  }

  /**
   * What the attempt holds: the larger of its grants and the files it wrote. As of the last
   * expiry of leases, as are the figures below: the tuner asks {@link #liveAttempts} first.
   */
  long heldByAttempt(String attempt) {
    Lease lease = leases.get(attempt);
    return Math.max(lease == null ? 0 : lease.grantedBytes, onDisk.getOrDefault(attempt, 0L));
  }

  /**
   * What the job's attempts hold, running or ended: an ended attempt's files stay until YARN
   * deletes the job's dirs, so they count against the job as its running attempts' grants do.
   */
  long heldByJob(String job) {
    long held = onDiskByJob.getOrDefault(job, 0L);
    for (Map.Entry<String, Lease> lease : leases.entrySet()) {
      if (job.equals(lease.getValue().job)) {
        held += Math.max(0, lease.getValue().grantedBytes
            - onDisk.getOrDefault(lease.getKey(), 0L));
      }
    }
    return held;
  }

  /** Attempts of the job holding live grants. */
  int liveAttemptsOfJob(String job) {
    int live = 0;
    for (Lease lease : leases.values()) {
      if (job.equals(lease.job)) {
        live++;
      }
    }
    return live;
  }

  /**
   * True when a job other than {@code job} holds room on the node: a live grant, or files the
   * last scan found (a job's files stay until YARN deletes its dirs at its end).
   */
  boolean othersHold(String job) {
    for (Lease lease : leases.values()) {
      if (!job.equals(lease.job)) {
        return true;
      }
    }
    for (Map.Entry<String, Long> files : onDiskByJob.entrySet()) {
      if (!job.equals(files.getKey()) && files.getValue() > 0) {
        return true;
      }
    }
    return false;
  }

  boolean holdsLease(String attempt) {
    return leases.containsKey(attempt);
  }

  /**
   * The attempt ended: its grants go. A map attempt granted its one request (one spill, which
   * Hadoop renames into the map's output) is measured at the next scan. Other attempts leave
   * less than they wrote: a map of several spills deletes them once merged, a reduce its merge
   * inputs, and a refused request's file is on HDD.
   */
  void finished(String attempt) {
    Lease lease = leases.remove(attempt);
    if (lease != null && lease.grants == 1 && !lease.refusedSome && lease.askedBytes > 0
        && attempt.contains(MAP_ATTEMPT) && ended.size() < MAX_ENDED) {
      ended.put(attempt, new Ended(lease.askedBytes, scansBegun));
    }
  }

  /** A scan of the localized dirs begins; returns its number for {@link #scanned}. */
  long scanBegins() {
    return ++scansBegun;
  }

  /** The attempts whose files a scan must count by attempt: running ones, and ended to measure. */
  Set<String> attemptsToMeasure() {
    Set<String> attempts = new HashSet<>(leases.keySet());
    attempts.addAll(ended.keySet());
    return attempts;
  }

  /**
   * The latest scan, number {@code scan}: bytes of the files under the localized dirs, by
   * attempt. Map attempts that ended before it began left their files whole.
   */
  void scanned(Map<String, Long> bytesByAttempt, long scan) {
    Iterator<Map.Entry<String, Ended>> endings = ended.entrySet().iterator();
    while (endings.hasNext()) {
      Map.Entry<String, Ended> ending = endings.next();
      if (ending.getValue().endedInScan() < scan) {
        writtenShare.sample(ending.getValue().askedBytes(),
            bytesByAttempt.getOrDefault(ending.getKey(), 0L));
        endings.remove();
      }
    }
    onDisk = Map.copyOf(bytesByAttempt);
    Map<String, Long> byJob = new HashMap<>();
    onDisk.forEach((attempt, bytes) -> {
      String job = jobOf(attempt);
      if (job != null) {
        byJob.merge(job, bytes, Long::sum);
      }
    });
    onDiskByJob = byJob;
  }

  /** Localized bytes held now: live grants or what their attempts wrote, and files left. */
  long usedBytes(long nowMillis) {
    expire(nowMillis);
    long used = 0;
    for (Map.Entry<String, Long> files : onDisk.entrySet()) {
      if (!leases.containsKey(files.getKey())) {
        used += files.getValue();
      }
    }
    for (Map.Entry<String, Lease> lease : leases.entrySet()) {
      used += Math.max(lease.getValue().grantedBytes, onDisk.getOrDefault(lease.getKey(), 0L));
    }
    return used;
  }

  /**
   * The localized dirs' devices as a scan found them: the room they had ({@link
   * LocalizedDevices}), and what the input cache held on them then.
   */
  void devicesMeasured(long roomBytes, long inputBytes) {
    deviceRoomBytes = roomBytes;
    deviceInputBytes = inputBytes;
  }

  /**
   * Whether the devices take {@code bytes} more beside what live grants may still write: the
   * room they had at the last scan, grown by what the input cache on them gave up since (its
   * evicted copies are being deleted) or shrunk by what it took. A grant is a promise that the
   * file fits; a spill that finds the device full fails its task.
   */
  boolean devicesFit(long bytes, long inputBytesNow) {
    long room = deviceRoomBytes + deviceInputBytes - inputBytesNow - unwrittenBytes();
    return bytes <= room;
  }

  /**
   * Bytes live grants may still write: what each running attempt was charged beyond what the
   * last scan found of it. As of the last expiry of leases.
   */
  long unwrittenBytes() {
    long unwritten = 0;
    for (Map.Entry<String, Lease> lease : leases.entrySet()) {
      unwritten += Math.max(0, lease.getValue().grantedBytes
          - onDisk.getOrDefault(lease.getKey(), 0L));
    }
    return unwritten;
  }

  /** Attempts holding live grants. */
  int liveAttempts(long nowMillis) {
    expire(nowMillis);
    return leases.size();
  }

  private void expire(long nowMillis) {
    Iterator<Lease> it = leases.values().iterator();
    while (it.hasNext()) {
      if (it.next().expiresMillis <= nowMillis) {
        it.remove();
      }
    }
  }
}
