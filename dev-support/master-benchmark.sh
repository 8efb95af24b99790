#!/usr/bin/env bash
# Throughput benchmark of the cache master in its NameNode, in the manner of Hadoop's
# NNThroughputBenchmark: a real NameNode with the master plugin in one JVM, simulated DataNodes
# registered with it, a namespace of directories of the given sizes (some files open for write)
# and a slave thread per DataNode speaking the master's protocol over RPC. Reports the master's
# namesystem lock holds (wall and CPU time) and the RPC latency per call type, as Markdown.
# The defaults take about 10 minutes on 2 cores. See docs/benchmarks.md.
# Usage: dev-support/master-benchmark.sh [--slaves 1000] [--shapes 1000x10,10x1000,1x100000]
#        [--open-per-dir 1] [--seconds 240] [--heartbeat-ms 3000] [--admissions 2] [--hits 20]
#        [--misses 20] [--capacity-blocks 64] [--replication 3]
#        [--report target/bench/master-benchmark.md]
exec "$(dirname "$0")/hdfs-bench-main.sh" org.mpcache.bench.MasterBenchmark "$@"
