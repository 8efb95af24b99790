package org.mpcache.master;

import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;
import org.mpcache.protocol.MpCacheMasterProtocol;

/**
 * The master's service-level authorization (with {@code hadoop.security.authorization}): who may
 * connect at all, {@value #MASTER_PROTOCOL_ACL} in {@code hadoop-policy.xml}, read when the
 * NameNode starts. Per-call checks come after it (MasterCallers).
 */
public final class MpCachePolicyProvider extends PolicyProvider {
  public static final String MASTER_PROTOCOL_ACL = "security.mpcache.master.protocol.acl";
  /** By the interface the protocol's wire name names, as Hadoop's RPC server looks it up. */
  private static final Service[] SERVICES = {
      new Service(MASTER_PROTOCOL_ACL, MpCacheMasterProtocol.class)};

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
