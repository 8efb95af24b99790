package org.mpcache.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.protocol.proto.MpCacheMasterProtos.MpCacheMasterProtocolService;

/** The wire form of {@link MpCacheMasterProtocol} for Hadoop RPC's ProtobufRpcEngine2. */
@ProtocolInfo(protocolName = "org.mpcache.protocol.MpCacheMasterProtocol", protocolVersion = 1)
public interface MpCacheMasterProtocolPB extends MpCacheMasterProtocolService.BlockingInterface {
}
