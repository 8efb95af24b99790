#!/usr/bin/env bash
# Replays a trace of the policy simulator's workload through the real DataNode read path (a
# MiniDFSCluster with the product on and the master in the NameNode), once per policy, beside the
# simulator's figures on the identical trace; writes replay.csv and replay.md and prints the csv's
# path last. Hadoop's log lines go to replay.log in the output dir.
# Usage: dev-support/replay-benchmark.sh [--jobs 1000] [--warmup 100]
#        [--policies mpcache,mpcache-as-published,lru,lfu,mru,wholeset] [--nodes 7]
#        [--tenants nodes/7] [--s 1] [--cache-gb 80] [--block-mb 1024] [--seed 1] [--block-kb 64]
#        [--readers-per-node 0] [--trace FILE] [--out target/bench/replay]
set -euo pipefail
# shellcheck source=caller-paths.sh
source "$(dirname "$0")/caller-paths.sh"
absolute_paths "--out --trace --swim --audit-log --listing" "$@"
set -- "${ARGS[@]+"${ARGS[@]}"}"
cd "$(dirname "$0")/.."
out=mpcache-bench/target/bench/replay
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = "--out" ] && [ $((i + 1)) -lt ${#args[@]} ]; then
    out=${args[$((i + 1))]}
  fi
done
mkdir -p "$out"
log=$(cd "$out" && pwd)/replay.log
echo "Hadoop's log: $log" >&2
BENCH_LOG=$log exec "$(dirname "$0")/hdfs-bench-main.sh" org.mpcache.bench.ReplayBenchmark --out "$(cd "$out" && pwd)" "$@" 2>>"$log"
