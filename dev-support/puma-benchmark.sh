#!/usr/bin/env bash
# The PUMA job stream, side by side: the same jobs, data, placement and (emulated) devices under
# each configuration (stock Hadoop, Hadoop's in-memory cache, ALL_SSD, mpCache and its variants),
# one stream per seed and configuration. Builds what it needs, prints a line per job, then the
# summary with 95 % intervals and the path of the report; Hadoop's log goes to the results folder.
# Usage: dev-support/puma-benchmark.sh [--help | options], see docs/benchmarks.md.
set -euo pipefail
# shellcheck source=caller-paths.sh
source "$(dirname "$0")/caller-paths.sh"
absolute_paths "--report-dir --work-dir --ssd-dir --merge*" "$@"
set -- "${ARGS[@]+"${ARGS[@]}"}"
cd "$(dirname "$0")/.."
if [[ " $* " != *" --help "* ]]; then
  mvn -B -ntp -q -DskipTests install
fi
cd mpcache-bench
# Maven's console may wrap what it prints in colour codes: strip them.
plain() { sed 's/\x1b\[[0-9;]*m//g'; }
classpath=$(mvn -B -ntp -q dependency:build-classpath -Dmdep.outputFile=/dev/stdout | plain)
jvm_args=$(mvn -B -ntp -q help:evaluate -Dexpression=hadoop.test.jvm.args -DforceStdout | plain)
# shellcheck disable=SC2086
mkdir -p target/bench
# The nodes are hosts of their own (mphost<i>, 127.0.1.i): the harness writes this file and every
# JVM of the run resolves names with it.
exec java $jvm_args ${BENCH_JVM_OPTS:-} -Djdk.net.hosts.file="$PWD/target/bench/hosts" \
  -Dhadoop.log.dir=target/bench/log \
  -Dlog4j.configuration=bench-log4j.properties -Djava.util.logging.config.file=../dev-support/bench-conf/logging.properties \
  -cp "../dev-support/bench-conf:$(ls target/mpcache-bench-*.jar):$classpath" \
  org.mpcache.bench.harness.BenchmarkHarness "$@"
