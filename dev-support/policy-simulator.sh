#!/usr/bin/env bash
# Replays the PUMA job mix through the master's replacement policies and the upper bounds on
# block hits (Belady's MIN) and job hits (JobBound); prints block and job hit ratios. With --seeds
# (or --csv) it runs each seed, appends a row per policy and seed to the CSV (a later run with the
# same settings resumes it), and prints means with 95 % intervals and paired differences against
# the first policy listed. --max-tracked N forgets data sets beyond N tracked, least recently read
# first, as the master does (dfs.mpcache.master.dataset.max-tracked; one trace only). --swim FILE
# replays a SWIM workload with input paths (Facebook 2010), --audit-log FILE --listing FILE the
# reads of an HDFS audit log (sizes from 'hdfs oiv -p Delimited'), instead of drawing a trace. See
# docs/policies.md.
# Usage: dev-support/policy-simulator.sh [--nodes 7] [--tenants nodes/7] [--jobs 10000] [--s 1]
#        [--cache-gb 80] [--block-mb 128] [--seed 1 | --seeds 11-30] [--policies a,b,...]
#        [--csv simulator-runs.csv] [--trace FILE] [--write-trace FILE] [--read-order file|shuffled]
#        [--max-tracked N]
#        [--swim FILE [--data-set path|path-part|path-size] [--part newest|prefix|random]
#         [--samples 0-23] [--per-sample [--cache-shares 1/16,1/8,1/4,1/2,1]]]
#        [--audit-log FILE --listing FILE [--job-gap 60]]
set -euo pipefail
# shellcheck source=caller-paths.sh
source "$(dirname "$0")/caller-paths.sh"
absolute_paths "--csv --trace --write-trace --swim --audit-log --listing" "$@"
set -- "${ARGS[@]+"${ARGS[@]}"}"
cd "$(dirname "$0")/.."
mvn -B -ntp -q -DskipTests install
cd mpcache-policy
# Maven's console may wrap what it prints in colour codes: strip them.
classpath=$(mvn -B -ntp -q dependency:build-classpath -Dmdep.includeScope=compile \
  -Dmdep.outputFile=/dev/stdout | sed 's/\x1b\[[0-9;]*m//g')
exec java -Xmx${SIMULATOR_HEAP:-6g} -cp "target/classes:$classpath" \
  org.mpcache.simulator.PolicySimulator "$@"
