#!/usr/bin/env bash
# Read benchmark of the DataNode input cache: cache-hit throughput (remote and short-circuit)
# against the raw sequential read bandwidth of the SSD dir, one run, one machine.
# Usage: dev-support/read-benchmark.sh [--size-mb 1024] [--block-mb 128] [--rounds 3]
#        [--report target/bench/read-benchmark.md]
exec "$(dirname "$0")/hdfs-bench-main.sh" org.mpcache.bench.ReadBenchmark "$@"
