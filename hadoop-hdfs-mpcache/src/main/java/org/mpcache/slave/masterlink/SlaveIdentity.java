package org.mpcache.slave.masterlink;

import java.util.List;
import java.util.function.Supplier;

import org.mpcache.protocol.SlaveProof;

/**
 * How the slave names its DataNode to the master (the host name is known only once it runs), and
 * proves that it runs in it (docs/security.md, "The master").
 */
public record SlaveIdentity(String datanodeUuid, Supplier<String> hostname,
    Supplier<List<SlaveProof>> proofs) {
}
