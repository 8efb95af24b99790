package org.mpcache.shuffle;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.mpcache.conf.InvalidSettingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's ShuffleHandler that also relays each job's channel key to the node's cache slave
 * ({@link ChannelRelay}, docs/security.md), and makes the NodeManager place applications' files
 * on its SSD local dir first ({@link NodeManagerAppDirs}). It is the one aux service to which
 * YARN hands each job's shuffle secret when the job's first task starts on the node, so the
 * relay lives here. An operator names it as
 * {@code yarn.nodemanager.aux-services.mapreduce_shuffle.class}; the shuffle itself is unchanged.
 */
public class MpCacheShuffleHandler extends ShuffleHandler {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheShuffleHandler.class);
  private ChannelRelay relay;

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    NodeManagerAppDirs.preferSsd(getAuxiliaryLocalPathHandler(), conf);
    try {
      relay = ChannelRelay.from(conf);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: no job keys are relayed to the cache slave, tasks write intermediate"
          + " data to the HDDs: invalid setting {}", e.getMessage());
    }
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // Read before the shuffle does: both read the application data from its position.
    byte[] shuffleSecret = null;
    try {
      shuffleSecret = deserializeServiceData(context.getApplicationDataForService().duplicate())
          .getPassword();
    } catch (IOException | RuntimeException e) {
      LOG.warn("mpCache: no shuffle secret in {}'s application data; its tasks write"
          + " intermediate data to the HDDs", context.getApplicationId(), e);
    }
    super.initializeApplication(context);
    if (relay != null && shuffleSecret != null) {
      relay.admit(jobId(context.getApplicationId()), shuffleSecret);
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    super.stopApplication(context);
    if (relay != null) {
      relay.forget(jobId(context.getApplicationId()));
    }
  }

  /** The MapReduce job id of the application, as its task attempts name it. */
  private static String jobId(ApplicationId app) {
    return new JobID(Long.toString(app.getClusterTimestamp()), app.getId()).toString();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    super.serviceStop();
  }
}
