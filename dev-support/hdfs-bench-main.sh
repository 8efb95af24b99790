#!/usr/bin/env bash
# Runs a benchmark main class of the lab's test sources (mpcache-bench: org.mpcache.bench.*) with
# the module's test classpath and the benchmark logging and Hadoop settings of bench-conf/.
# Hadoop's log lines go to $BENCH_LOG (default target/bench/log/hadoop.log of the module).
# Usage: [BENCH_LOG=file] dev-support/hdfs-bench-main.sh <class> [arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
main=$1
shift
mvn -B -ntp -q -DskipTests install
cd mpcache-bench
mvn -B -ntp -q test-compile
# Maven's console may wrap what it prints in colour codes: strip them.
plain() { sed 's/\x1b\[[0-9;]*m//g'; }
classpath=$(mvn -B -ntp -q dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=/dev/stdout | plain)
jvm_args=$(mvn -B -ntp -q help:evaluate -Dexpression=hadoop.test.jvm.args -DforceStdout | plain)
# shellcheck disable=SC2086
exec java $jvm_args ${BENCH_JVM_OPTS:-} -Dtest.build.data=target/bench/data -Dhadoop.log.dir=target/bench/log \
  -Dmpcache.bench.log="${BENCH_LOG:-target/bench/log/hadoop.log}" -Dlog4j.configuration=bench-log4j.properties -Djava.util.logging.config.file=../dev-support/bench-conf/logging.properties \
  -cp "../dev-support/bench-conf:target/test-classes:target/classes:$classpath" "$main" "$@"
