package org.mpcache.protocol;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.regex.Pattern;

import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.io.Text;
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
  /** The form of a MapReduce job id; its cluster part is a timestamp, its job part a count. */
  public static final Pattern JOB_ID = Pattern.compile("job_\\d{1,20}_\\d{1,10}");
  private static final int MAX_JOB_ID_CHARS = 64;
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
    if (!JOB_ID.matcher(jobId).matches()) {
      throw new IllegalArgumentException("\"" + jobId + "\" is not a job id");
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
    Text.writeString(out, jobId);
  }

  /**
   * Read from what an unauthenticated caller sends (the RPC server reads the identifier before it
   * checks the password): a bounded length, and nothing but a job id or the relay's empty one.
   */
  @Override
  public void readFields(DataInput in) throws IOException {
    String read = Text.readString(in, MAX_JOB_ID_CHARS);
    if (!read.isEmpty() && !JOB_ID.matcher(read).matches()) {
      throw new IOException("mpCache: a channel token names \""
          + StringUtils.abbreviate(read, 40) + "\", not a job id (job_<cluster>_<job>)");
    }
    jobId = read;
  }

  @Override
  public String toString() {
    return isRelay() ? "mpCache relay" : "mpCache tasks of " + jobId;
  }
}
