#!/usr/bin/env bash
# Replays the PUMA job mix through the master's replacement policies (mpCache, LRU, LFU, MRU)
# and an offline bound; prints block and job hit ratios.
# Usage: dev-support/policy-simulator.sh [--nodes 7] [--tenants nodes/7] [--jobs 10000] [--s 1]
#        [--cache-gb 80] [--block-mb 128] [--seed 1]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q -DskipTests install
cd hadoop-hdfs-mpcache
# Maven's console may wrap what it prints in colour codes: strip them.
classpath=$(mvn -B -ntp -q dependency:build-classpath -Dmdep.includeScope=compile \
  -Dmdep.outputFile=/dev/stdout | sed 's/\x1b\[[0-9;]*m//g')
exec java -Xmx${SIMULATOR_HEAP:-6g} -cp "target/classes:$classpath" \
  org.mpcache.simulator.PolicySimulator "$@"
