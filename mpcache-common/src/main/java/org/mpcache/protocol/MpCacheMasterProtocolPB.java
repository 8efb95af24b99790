package org.mpcache.protocol;

import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSelector;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.token.TokenInfo;
import org.mpcache.protocol.proto.MpCacheMasterProtos.MpCacheMasterProtocolService;

/**
 * The wire form of {@link MpCacheMasterProtocol} for Hadoop RPC's ProtobufRpcEngine2. The master
 * runs in the NameNode and authenticates as it under Kerberos, and takes the NameNode's
 * delegation tokens from callers without a ticket (MasterTokens); who may make each call is
 * checked per call (docs/security.md), as slaves, admins and schedulers share the protocol.
 */
@KerberosInfo(serverPrincipal = DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY)
@TokenInfo(DelegationTokenSelector.class)
@ProtocolInfo(protocolName = "org.mpcache.protocol.MpCacheMasterProtocol", protocolVersion = 1)
public interface MpCacheMasterProtocolPB extends MpCacheMasterProtocolService.BlockingInterface {
}
