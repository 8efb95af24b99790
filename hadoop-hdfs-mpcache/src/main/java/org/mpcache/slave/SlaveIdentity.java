package org.mpcache.slave;

import java.util.function.Supplier;

/** How the slave names its DataNode to the master (the host name is known only once it runs). */
public record SlaveIdentity(String datanodeUuid, Supplier<String> hostname) {
}
