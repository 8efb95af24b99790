package org.mpcache.protocol;

import java.util.List;

/**
 * What a refresh did with the master's keys whose values changed in its NameNode's configuration
 * files: applied to the running master, applied through a fresh master built with them (it
 * recovers from the slaves' registrations; ranks and access history start anew), or left for a
 * NameNode restart (docs/configuration.md says which key is which).
 */
public record RefreshAnswer(List<String> applied, List<String> freshMaster,
    List<String> needRestart) {
}
