package org.mpcache.locality;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider;

/**
 * Submits MapReduce jobs to YARN with mpCache's application master when
 * {@code mapreduce.framework.name} is {@value #FRAMEWORK_NAME} (found by Hadoop's Cluster through
 * META-INF/services): the one way to change the application master without changing jobs.
 */
public class MpCacheClientProtocolProvider extends ClientProtocolProvider {
  public static final String FRAMEWORK_NAME = "yarn-mpcache";

  @Override
  public ClientProtocol create(Configuration conf) throws IOException {
    return FRAMEWORK_NAME.equals(conf.getTrimmed(MRConfig.FRAMEWORK_NAME))
        ? new MpCacheYarnRunner(conf) : null;
  }

  @Override
  public ClientProtocol create(InetSocketAddress addr, Configuration conf) throws IOException {
    return create(conf);
  }

  @Override
  public void close(ClientProtocol clientProtocol) {
    // Nothing held beyond the runner, as for YarnClientProtocolProvider.
  }
}
