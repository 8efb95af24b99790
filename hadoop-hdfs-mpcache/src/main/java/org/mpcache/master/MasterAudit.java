package org.mpcache.master;

import java.net.InetAddress;

import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's audit log: one line per admin call (report, switch, pin, unpin, free, TTL) with
 * the caller, the path and the outcome, in the NameNode audit log's form
 * ({@code allowed= ugi= ip= cmd= src=}), under the logger {@value #LOGGER}, which log4j routes
 * as the NameNode's own audit logger (docs/operations.md, "Audit").
 */
final class MasterAudit {
  static final String LOGGER = "org.mpcache.master.audit";
  private static final Logger AUDIT = LoggerFactory.getLogger(LOGGER);

  private MasterAudit() {
  }

  /** Logs the current RPC call's {@code command} on {@code path} (null for none). */
  static void log(boolean allowed, String command, String path, String outcome) {
    if (!AUDIT.isInfoEnabled()) {
      return;
    }
    UserGroupInformation caller = Server.getRemoteUser();
    InetAddress address = Server.getRemoteIp();
    AUDIT.info("allowed={}\tugi={}\tip={}\tcmd={}\tsrc={}\toutcome={}", allowed,
        caller == null ? "(in process)" : caller, address == null ? null : "/"
            + address.getHostAddress(), command, path, outcome);
  }
}
