#!/usr/bin/env bash
# A Hadoop 3.5.0 cluster of real daemons on loopback, with the distribution installed over it:
# a NameNode with the cache master, 3 DataNodes with mpCache (each with its own HDD and SSD dirs),
# a ResourceManager, 2 NodeManagers and a JobHistoryServer, each a JVM of its own, configured
# only by the site files this script writes. Hadoop's jars are the ones Maven resolved for hadoop-mpcache-dist; the
# overlay is the tarball that module built (build first: mvn -B -ntp package -DskipTests).
#
# Usage: dev-support/pseudo-cluster.sh [--dir DIR] start | status | stop | exec <command> [args]
#   start    lay out the install, write the site files, format, start, wait until every daemon
#            serves (DataNodes live, NodeManagers running, every slave registered with the master)
#   status   each daemon's state; exit 0 when all run
#   stop     stop the daemons and every task they started; exit 0 when none is left
#   exec     run a client command against the cluster, as bin/<command> would on a node:
#            hdfs dfs ..., hdfs mpcacheadmin ..., yarn jar ..., mapred job ...; it runs in the
#            install's folder (HADOOP_HOME), so `yarn jar share/hadoop/mpcache/jobs/...` works
# DIR defaults to hadoop-mpcache-dist/target/pseudo-cluster. docs/operations.md tells more.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$repo/hadoop-mpcache-dist/target/pseudo-cluster
if [[ "${1:-}" = --dir ]]; then
  [[ $# -ge 2 ]] || { echo "--dir needs a folder" >&2; exit 2; }
  mkdir -p "$2"
  dir=$(cd "$2" && pwd)
  shift 2
fi
launcher=$repo/dev-support/pseudo-cluster/hadoop-command.sh
home=$dir/hadoop
conf=$dir/conf
DATANODES=3
NODEMANAGERS=2
WAIT_SECONDS=${PSEUDO_CLUSTER_WAIT_SECONDS:-180}

usage() {
  sed -n '/^# Usage:/,/^# DIR/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

daemons() {
  echo namenode
  for i in $(seq 1 $DATANODES); do echo "datanode$i"; done
  echo resourcemanager
  for i in $(seq 1 $NODEMANAGERS); do echo "nodemanager$i"; done
  echo historyserver
}

pid_of() {
  local file=$dir/pids/$1.pid
  [[ -f "$file" ]] && cat "$file"
}

# A pid file names a running daemon of this cluster only if that process's command line names
# this folder (a pid may be reused after a reboot).
running() {
  local pid
  pid=$(pid_of "$1") && kill -0 "$pid" 2>/dev/null \
    && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/"
}

# A client command against the cluster: the launcher with the shared site files.
client() {
  HADOOP_HOME=$home HADOOP_CONF_DIR=$conf HADOOP_LOG_DIR=$dir/logs "$launcher" "$@"
}

# ---- ports: a free loopback port below the ephemeral range, distinct from those taken --------
declare -A TAKEN=()
# take_port VAR: sets VAR (in this shell, so the next call knows the port is taken).
take_port() {
  local low=20000 high port
  high=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 1 200); do
    port=$((low + RANDOM % (high - low)))
    [[ -n "${TAKEN[$port]:-}" ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      TAKEN[$port]=1
      printf -v "$1" '%s' "$port"
      return
    fi
  done
  echo "pseudo-cluster: no free port between $low and $high" >&2
  exit 1
}

# ---- site files ------------------------------------------------------------------------------
prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
site() {
  local file=$1
  shift
  { echo '<?xml version="1.0"?>'
    echo "<!-- Written by dev-support/pseudo-cluster.sh. -->"
    echo '<configuration>'
    cat
    echo '</configuration>'; } > "$file"
}

# A conf dir: the keys every process reads (core-site, hdfs-site, mapred-site, yarn-site), as an
# operator merges them from etc/hadoop/mpcache-samples, with this cluster's addresses and small
# sizes, plus a node's own properties for hdfs-site ($2), yarn-site ($3) and mapred-site ($4).
write_conf() {
  local to=$1 node_hdfs=${2:-} node_yarn=${3:-} node_mapred=${4:-}
  mkdir -p "$to"
  site "$to/core-site.xml" <<EOF
$(prop fs.defaultFS "hdfs://127.0.0.1:$NN_RPC")
$(prop hadoop.tmp.dir "$dir/data/tmp")
EOF
  site "$to/hdfs-site.xml" <<EOF
$(prop dfs.namenode.rpc-address "127.0.0.1:$NN_RPC")
$(prop dfs.namenode.http-address "127.0.0.1:$NN_HTTP")
$(prop dfs.namenode.name.dir "$dir/data/namenode")
$(prop dfs.replication 1)
$(prop dfs.blocksize 4m)
$(prop dfs.namenode.plugins org.mpcache.master.MpCacheMasterPlugin)
$(prop dfs.mpcache.master.address "127.0.0.1:$MASTER")
$(prop dfs.permissions.enabled true)
$(prop dfs.mpcache.localized.relay.secret.file "$dir/data/mpcache-relay-secret")
$node_hdfs
EOF
  site "$to/mapred-site.xml" <<EOF
$(prop mapreduce.framework.name yarn-mpcache)
$(prop mapreduce.application.classpath '$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*,$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/lib/*,$HADOOP_HOME/share/hadoop/mpcache/*')
$(prop mapreduce.job.map.output.collector.class 'org.apache.hadoop.mapred.SsdMapOutputCollector,org.apache.hadoop.mapred.MapTask$MapOutputBuffer')
$(prop mapreduce.job.reduce.shuffle.consumer.plugin.class org.apache.hadoop.mapreduce.task.reduce.SsdShuffle)
$(prop yarn.app.mapreduce.am.resource.mb 512)
$(prop yarn.app.mapreduce.am.command-opts -Xmx384m)
$(prop mapreduce.map.memory.mb 512)
$(prop mapreduce.reduce.memory.mb 512)
$(prop mapreduce.map.java.opts -Xmx384m)
$(prop mapreduce.reduce.java.opts -Xmx384m)
$(prop yarn.app.mapreduce.am.staging-dir /tmp/hadoop-yarn/staging)
$(prop mapreduce.jobhistory.address "127.0.0.1:$JHS")
$(prop mapreduce.jobhistory.webapp.address "127.0.0.1:$JHS_WEB")
$(prop mapreduce.jobhistory.admin.address "127.0.0.1:$JHS_ADMIN")
$node_mapred
EOF
  site "$to/yarn-site.xml" <<EOF
$(prop yarn.resourcemanager.hostname 127.0.0.1)
$(prop yarn.resourcemanager.address "127.0.0.1:$RM")
$(prop yarn.resourcemanager.scheduler.address "127.0.0.1:$RM_SCHEDULER")
$(prop yarn.resourcemanager.resource-tracker.address "127.0.0.1:$RM_TRACKER")
$(prop yarn.resourcemanager.admin.address "127.0.0.1:$RM_ADMIN")
$(prop yarn.resourcemanager.webapp.address "127.0.0.1:$RM_WEB")
$(prop yarn.scheduler.minimum-allocation-mb 256)
$(prop yarn.nodemanager.resource.memory-mb 2048)
$(prop yarn.nodemanager.resource.cpu-vcores 4)
$(prop yarn.nodemanager.vmem-check-enabled false)
$(prop yarn.nodemanager.pmem-check-enabled false)
$(prop yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99.9)
$(prop yarn.nodemanager.aux-services mapreduce_shuffle)
$(prop yarn.nodemanager.aux-services.mapreduce_shuffle.class org.mpcache.shuffle.MpCacheShuffleHandler)
$(prop dfs.mpcache.localized.relay.secret.file "$dir/data/mpcache-relay-secret")
$(prop yarn.nodemanager.env-whitelist JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,HADOOP_MAPRED_HOME,PATH,LANG,TZ)
$node_yarn
EOF
  # What etc/hadoop/capacity-scheduler.xml of a Hadoop install holds (one queue), with room for
  # ApplicationMasters on these small NodeManagers.
  site "$to/capacity-scheduler.xml" <<EOF
$(prop yarn.scheduler.capacity.root.queues default)
$(prop yarn.scheduler.capacity.root.default.capacity 100)
$(prop yarn.scheduler.capacity.root.default.maximum-capacity 100)
$(prop yarn.scheduler.capacity.maximum-am-resource-percent 0.5)
EOF
  cat > "$to/log4j.properties" <<'EOF'
# Daemons log to ${hadoop.log.dir}/${hadoop.log.file} (RFA), clients to the console (WARN).
hadoop.root.logger=WARN,console
hadoop.log.dir=.
hadoop.log.file=hadoop.log
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.appender.RFA=org.apache.log4j.RollingFileAppender
log4j.appender.RFA.File=${hadoop.log.dir}/${hadoop.log.file}
log4j.appender.RFA.MaxFileSize=64MB
log4j.appender.RFA.MaxBackupIndex=2
log4j.appender.RFA.layout=org.apache.log4j.PatternLayout
log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
EOF
}

write_datanode_conf() {
  local i=$1 data=$dir/data/datanode$1 localized= xfer http ipc
  mkdir -p "$data/hdd" "$data/ssd/mpcache"
  if [[ $i -le $NODEMANAGERS ]]; then
    localized=$data/ssd/yarn-local
    mkdir -p "$localized"
  fi
  take_port xfer; take_port http; take_port ipc
  write_conf "$dir/conf-datanode$i" "$(
    prop dfs.datanode.address "127.0.0.1:$xfer"
    prop dfs.datanode.http.address "127.0.0.1:$http"
    prop dfs.datanode.ipc.address "127.0.0.1:$ipc"
    prop dfs.datanode.data.dir "$data/hdd"
    prop dfs.datanode.fsdataset.factory \
      org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.MpCacheFsDatasetFactory
    prop dfs.mpcache.enabled true
    prop dfs.mpcache.dirs "$data/ssd/mpcache"
    prop dfs.mpcache.capacity 256m
    if [[ -n "$localized" ]]; then prop dfs.mpcache.localized.dirs "$localized"; fi)"
}

# NodeManager i shares its node with DataNode i: its last local dir is that slave's SSD dir.
write_nodemanager_conf() {
  local i=$1 data=$dir/data/nodemanager$1 address localizer web shuffle
  mkdir -p "$data/local" "$data/logs"
  take_port address; take_port localizer; take_port web; take_port shuffle
  write_conf "$dir/conf-nodemanager$i" "" "$(
    prop yarn.nodemanager.address "127.0.0.1:$address"
    prop yarn.nodemanager.localizer.address "127.0.0.1:$localizer"
    prop yarn.nodemanager.webapp.address "127.0.0.1:$web"
    prop yarn.nodemanager.local-dirs "$data/local,$dir/data/datanode$i/ssd/yarn-local"
    prop yarn.nodemanager.log-dirs "$data/logs")" "$(
    # In mapred-site: mapred-default.xml, loaded after yarn-site.xml, would override it there.
    prop mapreduce.shuffle.port "$shuffle")"
}

# ---- processes -------------------------------------------------------------------------------
start_daemon() {
  local name=$1 command=$2 subcommand=$3 confdir=$4
  # setsid: the daemon outlives this script and gets no signal meant for its terminal.
  HADOOP_HOME=$home HADOOP_MAPRED_HOME=$home HADOOP_COMMON_HOME=$home HADOOP_HDFS_HOME=$home \
    HADOOP_YARN_HOME=$home HADOOP_CONF_DIR=$confdir HADOOP_LOG_DIR=$dir/logs \
    HADOOP_LOG_FILE=$name.log HADOOP_ROOT_LOGGER=INFO,RFA JAVA_HOME=$JAVA_HOME \
    setsid "$launcher" "$command" "$subcommand" > "$dir/logs/$name.out" 2>&1 < /dev/null &
  echo $! > "$dir/pids/$name.pid"
}

# Waits until "$@" succeeds; names what it waited for when it does not within WAIT_SECONDS.
wait_for() {
  local what=$1
  shift
  local deadline=$((SECONDS + WAIT_SECONDS))
  until "$@" > /dev/null 2>&1; do
    if ((SECONDS > deadline)); then
      echo "pseudo-cluster: gave up after ${WAIT_SECONDS}s waiting for $what; logs: $dir/logs" >&2
      return 1
    fi
    for daemon in $(daemons); do
      if [[ -f "$dir/pids/$daemon.pid" ]] && ! running "$daemon"; then
        echo "pseudo-cluster: $daemon exited while waiting for $what; see $dir/logs/$daemon.log" \
          "and $daemon.out" >&2
        return 1
      fi
    done
    sleep 1
  done
}

safe_mode_off() { client hdfs dfsadmin -safemode get | grep -q "Safe mode is OFF"; }
live_datanodes() { client hdfs dfsadmin -report -live | grep -q "Live datanodes ($DATANODES)"; }
running_nodemanagers() { client yarn node -list | grep -q "Total Nodes:$NODEMANAGERS"; }
history_server_up() { (exec 3<>"/dev/tcp/127.0.0.1/$JHS") 2>/dev/null; }
master_active() {
  local report
  report=$(client hdfs mpcacheadmin -report -json)
  grep -q '"state" : "active"' <<< "$report" \
    && [[ $(grep -c '"datanodeUuid"' <<< "$report") -eq $DATANODES ]]
}

start() {
  for daemon in $(daemons); do
    if running "$daemon"; then
      echo "pseudo-cluster: $daemon is running in $dir (pid $(pid_of "$daemon")); stop it first" >&2
      exit 1
    fi
  done
  local tarball hadoop_lib
  tarball=$(ls "$repo"/hadoop-mpcache-dist/target/hadoop-mpcache-*.tar.gz 2>/dev/null | head -1 || true)
  hadoop_lib=$(ls -d "$repo"/hadoop-mpcache-dist/target/hadoop-3.*/share/hadoop/common/lib 2>/dev/null | head -1 || true)
  if [[ -z "$tarball" || -z "$hadoop_lib" ]]; then
    echo "pseudo-cluster: no distribution built in hadoop-mpcache-dist/target;" \
      "run: mvn -B -ntp package -DskipTests" >&2
    exit 1
  fi
  if [[ -z "${JAVA_HOME:-}" ]]; then
    command -v java > /dev/null || { echo "pseudo-cluster: no java on PATH and no JAVA_HOME" >&2; exit 1; }
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  fi
  export JAVA_HOME
  # Only what this script makes: --dir may name a folder that holds other things.
  rm -rf "$home" "$conf" "$dir"/conf-* "$dir/data" "$dir/logs" "$dir/pids"
  mkdir -p "$home/share/hadoop/common" "$dir/logs" "$dir/pids" "$dir/data"
  ln -s "$hadoop_lib" "$home/share/hadoop/common/lib"
  ln -s "$(dirname "$(dirname "$hadoop_lib")")/hdfs" "$home/share/hadoop/hdfs"
  # The install step of docs/operations.md: the overlay unpacked over HADOOP_HOME.
  tar -xzf "$tarball" -C "$home" --strip-components=1

  take_port NN_RPC; take_port NN_HTTP; take_port MASTER
  take_port RM; take_port RM_SCHEDULER; take_port RM_TRACKER; take_port RM_ADMIN; take_port RM_WEB
  take_port JHS; take_port JHS_WEB; take_port JHS_ADMIN
  # The relay secret the DataNodes and NodeManagers share (docs/security.md): one file, the
  # daemons' user only.
  (umask 077 && head -c 32 /dev/urandom | base64 > "$dir/data/mpcache-relay-secret")
  write_conf "$conf"
  for i in $(seq 1 $DATANODES); do write_datanode_conf "$i"; done
  for i in $(seq 1 $NODEMANAGERS); do write_nodemanager_conf "$i"; done

  echo "pseudo-cluster: formatting the NameNode"
  client hdfs namenode -format -nonInteractive -force > "$dir/logs/format.out" 2>&1
  start_daemon namenode hdfs namenode "$conf"
  for i in $(seq 1 $DATANODES); do
    start_daemon "datanode$i" hdfs datanode "$dir/conf-datanode$i"
  done
  start_daemon resourcemanager yarn resourcemanager "$conf"
  for i in $(seq 1 $NODEMANAGERS); do
    start_daemon "nodemanager$i" yarn nodemanager "$dir/conf-nodemanager$i"
  done
  # Job clients ask it for a finished job's counters and task reports.
  start_daemon historyserver mapred historyserver "$conf"
  echo "pseudo-cluster: started $(daemons | wc -l) daemons, waiting until they serve"
  wait_for "the NameNode to leave safe mode" safe_mode_off
  wait_for "$DATANODES live DataNodes" live_datanodes
  wait_for "every slave registered with an active cache master" master_active
  wait_for "$NODEMANAGERS running NodeManagers" running_nodemanagers
  wait_for "the JobHistoryServer" history_server_up
  echo "pseudo-cluster: up; HADOOP_HOME $home, conf $conf, logs $dir/logs"
}

status() {
  local all=0
  for daemon in $(daemons); do
    if running "$daemon"; then
      printf '%-16s running (pid %s)\n' "$daemon" "$(pid_of "$daemon")"
    else
      printf '%-16s stopped\n' "$daemon"
      all=1
    fi
  done
  return $all
}

# Java processes of this cluster: the daemons and the task JVMs the NodeManagers started (their
# command lines name this folder).
cluster_processes() {
  local escaped
  escaped=$(printf '%s' "$dir" | sed 's/[][\.*^$+?(){}|]/\\&/g')
  pgrep -f -- "java .*$escaped/" || true
}

# Signals the daemons named on stdin and waits until they have exited or the deadline passed.
stop_daemons() {
  local daemon pids=()
  while read -r daemon; do
    if running "$daemon"; then
      pids+=("$(pid_of "$daemon")")
      kill "${pids[-1]}" 2>/dev/null || true
    fi
  done
  local pid
  for pid in "${pids[@]+"${pids[@]}"}"; do
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  done
}

stop() {
  local deadline=$((SECONDS + 60))
  # The NodeManagers go first: they unregister from the ResourceManager on their way out, and
  # with it gone they retry until their shutdown hook times out (30 s). Each still waits for the
  # applications and log deletions it holds (about 10 s here).
  daemons | grep -E '^(nodemanager|historyserver)' | stop_daemons || true
  daemons | grep -vE '^(nodemanager|historyserver)' | stop_daemons || true
  while [[ -n "$(cluster_processes)" ]] && ((SECONDS < deadline)); do sleep 1; done
  local left
  left=$(cluster_processes)
  if [[ -n "$left" ]]; then
    echo "pseudo-cluster: killing what did not stop in 60 s: $(echo "$left" | tr '\n' ' ')" >&2
    # shellcheck disable=SC2086
    kill -9 $left 2>/dev/null || true
    sleep 1
  fi
  rm -f "$dir"/pids/*.pid
  left=$(cluster_processes)
  if [[ -n "$left" ]]; then
    echo "pseudo-cluster: still running: $(echo "$left" | tr '\n' ' ')" >&2
    return 1
  fi
  echo "pseudo-cluster: stopped"
}

case "${1:-}" in
  start) start ;;
  status) status ;;
  stop) stop ;;
  exec)
    shift
    [[ $# -ge 2 ]] || usage
    [[ -d "$conf" ]] || { echo "pseudo-cluster: not started in $dir" >&2; exit 1; }
    cd "$home"
    client "$@"
    ;;
  *) usage ;;
esac
