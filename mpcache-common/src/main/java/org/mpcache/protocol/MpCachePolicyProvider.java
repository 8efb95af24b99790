package org.mpcache.protocol;

import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;

/**
 * mpCache's service-level authorization (with {@code hadoop.security.authorization}): who may
 * connect at all, {@value #MASTER_PROTOCOL_ACL} (the master, read when the NameNode starts) and
 * {@value #LOCALIZED_PROTOCOL_ACL} (the localized-space channel, read when the DataNode starts)
 * in {@code hadoop-policy.xml}. Per-call checks come after it (MasterCallers, ChannelCallers).
 */
public final class MpCachePolicyProvider extends PolicyProvider {
  public static final String MASTER_PROTOCOL_ACL = "security.mpcache.master.protocol.acl";
  public static final String LOCALIZED_PROTOCOL_ACL = "security.mpcache.localized.protocol.acl";
  /** By the interface each protocol's wire name names, as Hadoop's RPC server looks it up. */
  private static final Service[] SERVICES = {
      new Service(MASTER_PROTOCOL_ACL, MpCacheMasterProtocol.class),
      new Service(LOCALIZED_PROTOCOL_ACL, LocalizedSpaceProtocol.class)};

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
