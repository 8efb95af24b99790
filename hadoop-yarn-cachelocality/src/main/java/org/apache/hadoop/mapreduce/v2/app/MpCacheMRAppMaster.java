package org.apache.hadoop.mapreduce.v2.app;

import java.io.IOException;
import java.lang.reflect.Field;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.local.LocalContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.CacheLocalContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.RMCommunicator;
import org.apache.hadoop.mapreduce.v2.app.rm.RMHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.mapreduce.v2.util.MRApps;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.service.ServiceOperations;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.YarnUncaughtExceptionHandler;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.mpcache.compat.HadoopRelease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce application master with mpCache's map placement
 * ({@link CacheLocalContainerAllocator}); jobs get it when {@code mapreduce.framework.name} is
 * {@code yarn-mpcache}. Stock MRAppMaster builds its allocator in a private class and has no key
 * for another, hence this subclass, in Hadoop's package for the stock shutdown hook. Uber jobs
 * run as stock.
 */
public class MpCacheMRAppMaster extends MRAppMaster {
  private static final Logger LOG = LoggerFactory.getLogger(MpCacheMRAppMaster.class);

  private final ContainerId amContainerId;
  private final String nodeHost;
  private final int nodePort;
  private final int nodeHttpPort;
  private AMPreemptionPolicy preemptionPolicy;
  private AllocatorRouter router;

  public MpCacheMRAppMaster(ApplicationAttemptId attemptId, ContainerId containerId,
      String nodeHost, int nodePort, int nodeHttpPort, long appSubmitTime) {
    super(attemptId, containerId, nodeHost, nodePort, nodeHttpPort, appSubmitTime);
    this.amContainerId = containerId;
    this.nodeHost = nodeHost;
    this.nodePort = nodePort;
    this.nodeHttpPort = nodeHttpPort;
  }

  @Override
  protected AMPreemptionPolicy createPreemptionPolicy(Configuration conf) {
    preemptionPolicy = super.createPreemptionPolicy(conf);
    return preemptionPolicy;
  }

  @Override
  protected ContainerAllocator createContainerAllocator(ClientService clientService,
      AppContext context) {
    router = new AllocatorRouter(clientService, context);
    return router;
  }

  @Override
  public void notifyIsLastAMRetry(boolean isLastAMRetry) {
    super.notifyIsLastAMRetry(isLastAMRetry);
    if (router != null) {
      router.communicator().setShouldUnregister(isLastAMRetry);
    }
  }

  /** As MRAppMaster's private router: the job is known only once the service starts. */
  private final class AllocatorRouter extends AbstractService
      implements ContainerAllocator, RMHeartbeatHandler {
    private final ClientService clientService;
    private final AppContext context;
    private ContainerAllocator allocator;

    AllocatorRouter(ClientService clientService, AppContext context) {
      super(AllocatorRouter.class.getName());
      this.clientService = clientService;
      this.context = context;
    }

    @Override
    protected void serviceStart() throws Exception {
      if (context.getJob(getJobId()).isUber()) {
        MRApps.setupDistributedCacheLocal(getConfig());
        allocator = new LocalContainerAllocator(clientService, context, nodeHost, nodePort,
            nodeHttpPort, amContainerId);
      } else {
        allocator = new CacheLocalContainerAllocator(clientService, context, preemptionPolicy);
      }
      ((Service) allocator).init(getConfig());
      ((Service) allocator).start();
      super.serviceStart();
    }

    @Override
    protected void serviceStop() throws Exception {
      ServiceOperations.stop((Service) allocator);
      super.serviceStop();
    }

    RMCommunicator communicator() {
      return (RMCommunicator) allocator;
    }

    @Override
    public void handle(ContainerAllocatorEvent event) {
      allocator.handle(event);
    }

    @Override
    public long getLastHeartbeatTime() {
      return communicator().getLastHeartbeatTime();
    }

    @Override
    public void runOnNextHeartbeat(Runnable callback) {
      communicator().runOnNextHeartbeat(callback);
    }
  }

  /** As MRAppMaster.main, starting this class. */
  public static void main(String[] args) {
    String mismatch = HadoopRelease.mismatch("mpCache's ApplicationMaster");
    if (mismatch != null) {
      LOG.warn(mismatch);
      MRAppMaster.main(args);
      return;
    }
    try {
      markMainStarted();
      Thread.setDefaultUncaughtExceptionHandler(new YarnUncaughtExceptionHandler());
      ContainerId containerId = ContainerId.fromString(env(Environment.CONTAINER_ID.name()));
      MpCacheMRAppMaster appMaster = new MpCacheMRAppMaster(
          containerId.getApplicationAttemptId(), containerId, env(Environment.NM_HOST.name()),
          Integer.parseInt(env(Environment.NM_PORT.name())),
          Integer.parseInt(env(Environment.NM_HTTP_PORT.name())),
          Long.parseLong(env(ApplicationConstants.APP_SUBMIT_TIME_ENV)));
      ShutdownHookManager.get().addShutdownHook(() -> {
        if (appMaster.router != null && appMaster.router.allocator != null) {
          appMaster.router.communicator().setSignalled(true);
        }
        new MRAppMasterShutdownHook(appMaster).run();
      }, SHUTDOWN_HOOK_PRIORITY);
      JobConf conf = new JobConf(new YarnConfiguration());
      conf.addResource(new Path(MRJobConfig.JOB_CONF_FILE));
      MRWebAppUtil.initialize(conf);
      String jobUserName = env(Environment.USER.name());
      conf.set(MRJobConfig.USER_NAME, jobUserName);
      initAndStartAppMaster(appMaster, conf, jobUserName);
    } catch (Throwable t) {
      LOG.error("Error starting MpCacheMRAppMaster", t);
      ExitUtil.terminate(1, t);
    }
  }

  private static String env(String name) throws IOException {
    String value = System.getenv(name);
    if (value == null) {
      throw new IOException(name + " is not set in the application master's environment");
    }
    return value;
  }

  /**
   * MRAppMaster exits the JVM at the end of the job only when its own main ran (a private flag;
   * otherwise it takes itself for a unit test).
   */
  private static void markMainStarted() throws ReflectiveOperationException {
    Field mainStarted = MRAppMaster.class.getDeclaredField("mainStarted");
    mainStarted.setAccessible(true);
    mainStarted.setBoolean(null, true);
  }
}
