#!/usr/bin/env bash
# Rot under an open descriptor: how long a byte flipped in an SSD copy stays unnoticed before
# the scrubber drops the copy and revokes its short-circuit slots (against the bound: what the
# dir holds / the scrub rate), and what the NameNode does when a short-circuit reader that held
# the copy reads the rot (replication 1 and 2). One run, one machine.
# Usage: dev-support/rot-window-benchmark.sh [--cached-mb 64] [--block-kb 1024] [--scrub-mb 16]
#        [--trials 20] [--report target/bench/rot-window.md]
exec "$(dirname "$0")/hdfs-bench-main.sh" org.mpcache.bench.RotWindowBenchmark "$@"
