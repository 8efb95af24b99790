package org.mpcache.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.LocalizedSpaceProtocolService;

/** The wire form of {@link LocalizedSpaceProtocol} for Hadoop RPC's ProtobufRpcEngine2. */
@ProtocolInfo(protocolName = "org.mpcache.protocol.LocalizedSpaceProtocol", protocolVersion = 1)
public interface LocalizedSpaceProtocolPB
    extends LocalizedSpaceProtocolService.BlockingInterface {
}
