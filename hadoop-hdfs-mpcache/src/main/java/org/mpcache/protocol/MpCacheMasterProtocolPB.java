package org.mpcache.protocol;

import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.mpcache.protocol.proto.MpCacheMasterProtos.MpCacheMasterProtocolService;

/**
 * The wire form of {@link MpCacheMasterProtocol} for Hadoop RPC's ProtobufRpcEngine2. The master
 * runs in the NameNode and authenticates as it under Kerberos; who may make each call is checked
 * per call (docs/security.md), as slaves, admins and schedulers share the protocol.
 */
@KerberosInfo(serverPrincipal = DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY)
@ProtocolInfo(protocolName = "org.mpcache.protocol.MpCacheMasterProtocol", protocolVersion = 1)
public interface MpCacheMasterProtocolPB extends MpCacheMasterProtocolService.BlockingInterface {
}
