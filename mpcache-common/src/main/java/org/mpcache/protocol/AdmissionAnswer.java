package org.mpcache.protocol;

/** The master's answer to "may I cache this block?". */
public record AdmissionAnswer(Verdict verdict, long[] evict) {
  private static final long[] NONE = new long[0];
  public static final AdmissionAnswer REJECT = new AdmissionAnswer(Verdict.REJECT, NONE);
  public static final AdmissionAnswer REREGISTER = new AdmissionAnswer(Verdict.REREGISTER, NONE);
  public static final AdmissionAnswer RECOVERING = new AdmissionAnswer(Verdict.RECOVERING, NONE);

  /** The answers; the last two tell the slave to decide locally this time. */
  public enum Verdict {
    /** Cache the block after deleting {@code evict}. */
    ADMIT,
    /** Do not cache the block. */
    REJECT,
    /** The master does not know the slave: register again. */
    REREGISTER,
    /** The master is rebuilding its state from the slaves' registrations. */
    RECOVERING
  }

  public static AdmissionAnswer admit(long[] evict) {
    return new AdmissionAnswer(Verdict.ADMIT, evict);
  }
}
