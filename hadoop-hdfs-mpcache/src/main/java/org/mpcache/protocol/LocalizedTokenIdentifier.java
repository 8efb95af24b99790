package org.mpcache.protocol;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.TokenIdentifier;

/**
 * Whom a caller of the localized-space channel proves to be, with a token whose password only
 * that caller and the DataNode know (docs/security.md, "The localized-space channel"): the tasks
 * of one job (password: the job's channel key, {@link LocalizedChannelKeys#jobKey}), or the
 * NodeManager's relay, which hands the DataNode those keys (password: the relay secret).
 */
public final class LocalizedTokenIdentifier extends TokenIdentifier {
  public static final Text KIND = new Text("MPCACHE_LOCALIZED");
  private static final String RELAY_USER = "mpcache-relay";

  /** The job whose tasks hold the token; empty for the relay. */
  private String jobId;

  /** For {@link #readFields}. */
  public LocalizedTokenIdentifier() {
    this("");
  }

  private LocalizedTokenIdentifier(String jobId) {
    this.jobId = jobId;
  }

  /** The identity of a task of the job. */
  public static LocalizedTokenIdentifier ofJob(String jobId) {
    if (jobId.isEmpty()) {
      throw new IllegalArgumentException("a job token names its job");
    }
    return new LocalizedTokenIdentifier(jobId);
  }

  /** The identity of the NodeManager's relay. */
  public static LocalizedTokenIdentifier relay() {
    return new LocalizedTokenIdentifier("");
  }

  public boolean isRelay() {
    return jobId.isEmpty();
  }

  /** The job a task token proves; empty for the relay. */
  public String jobId() {
    return jobId;
  }

  @Override
  public Text getKind() {
    return KIND;
  }

  @Override
  public UserGroupInformation getUser() {
    return UserGroupInformation.createRemoteUser(isRelay() ? RELAY_USER : jobId);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeString(out, jobId);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    jobId = WritableUtils.readString(in);
  }

  @Override
  public String toString() {
    return isRelay() ? "mpCache relay" : "mpCache tasks of " + jobId;
  }
}
