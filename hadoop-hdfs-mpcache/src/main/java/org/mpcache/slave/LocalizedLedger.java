package org.mpcache.slave;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who holds localized space on this node: the grants of running task attempts, held while the
 * attempt renews its lease, and what the last scan of the localized dirs found, by attempt. A
 * running attempt counts for the larger of what it was granted and what it has written; an
 * ended or silent one (finished, killed, failed) for the files it left, until YARN deletes its
 * application's dirs. Pure bookkeeping: the tuner brings the clock and the scans.
 */
final class LocalizedLedger {
  /** Files under the localized dirs that name no task attempt. */
  static final String NO_ATTEMPT = "";
  /** The job part of an attempt id: attempt_&lt;cluster&gt;_&lt;job&gt;_&lt;m|r&gt;_... */
  private static final Pattern ATTEMPT_JOB = Pattern.compile("attempt_(\\d+_\\d+)_[mr]_");

  private final long leaseMillis;
  private final Map<String, Lease> leases = new HashMap<>();
  private Map<String, Long> onDisk = Map.of();
  /** The bytes of {@link #onDisk} by job. */
  private Map<String, Long> onDiskByJob = Map.of();

  private static final class Lease {
    final String job;
    long grantedBytes;
    long expiresMillis;

    Lease(String job) {
      this.job = job;
    }
  }

  LocalizedLedger(long leaseMillis) {
    this.leaseMillis = leaseMillis;
  }

  long leaseMillis() {
    return leaseMillis;
  }

  /** The attempt was granted {@code bytes} more; its lease starts again. */
  void granted(String attempt, long bytes, long nowMillis) {
    Lease lease = leases.computeIfAbsent(attempt, a -> new Lease(jobOf(a)));
    lease.grantedBytes += bytes;
    lease.expiresMillis = nowMillis + leaseMillis;
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
  static String jobOf(String attempt) {
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

  boolean holdsLease(String attempt) {
    return leases.containsKey(attempt);
  }

  void finished(String attempt) {
    leases.remove(attempt);
  }

  /** The latest scan: bytes of the files under the localized dirs, by attempt. */
  void scanned(Map<String, Long> bytesByAttempt) {
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
