package org.mpcache.locality;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.YARNRunner;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/** YARN's job runner, starting mpCache's application master instead of the stock one. */
public class MpCacheYarnRunner extends YARNRunner {
  static final String STOCK_APP_MASTER = "org.apache.hadoop.mapreduce.v2.app.MRAppMaster";
  /** By name: the client needs no application master classes. */
  static final String APP_MASTER = "org.apache.hadoop.mapreduce.v2.app.MpCacheMRAppMaster";
  private static final Pattern STOCK_MAIN_CLASS =
      Pattern.compile("(?<=\\s)" + Pattern.quote(STOCK_APP_MASTER) + "(?=\\s|$)");

  public MpCacheYarnRunner(Configuration conf) {
    super(conf);
  }

  @Override
  public ApplicationSubmissionContext createApplicationSubmissionContext(Configuration jobConf,
      String jobSubmitDir, Credentials ts) throws IOException {
    ApplicationSubmissionContext context =
        super.createApplicationSubmissionContext(jobConf, jobSubmitDir, ts);
    ContainerLaunchContext appMaster = context.getAMContainerSpec();
    appMaster.setCommands(withMpCacheAppMaster(appMaster.getCommands()));
    return context;
  }

  /** The commands with mpCache's application master class for the stock one. */
  static List<String> withMpCacheAppMaster(List<String> commands) throws IOException {
    List<String> replaced = commands.stream()
        .map(command -> STOCK_MAIN_CLASS.matcher(command).replaceAll(APP_MASTER)).toList();
    if (replaced.equals(commands)) {
      throw new IOException("mpCache: the application master command names no "
          + STOCK_APP_MASTER + " to replace: " + commands);
    }
    return replaced;
  }
}
