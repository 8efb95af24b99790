package org.mpcache.protocol;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.token.TokenInfo;
import org.mpcache.protocol.proto.LocalizedSpaceProtos.LocalizedSpaceProtocolService;

/**
 * The wire form of {@link LocalizedSpaceProtocol} and {@link LocalizedRelayProtocol} for Hadoop
 * RPC's ProtobufRpcEngine2. Callers prove themselves with a token (SASL DIGEST-MD5, with or
 * without Kerberos): tasks cannot log in to Kerberos, and under simple auth a name proves nothing.
 */
@TokenInfo(LocalizedTokenSelector.class)
@ProtocolInfo(protocolName = "org.mpcache.protocol.LocalizedSpaceProtocol", protocolVersion = 1)
public interface LocalizedSpaceProtocolPB
    extends LocalizedSpaceProtocolService.BlockingInterface {
}
