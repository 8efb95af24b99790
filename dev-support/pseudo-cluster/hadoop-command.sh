#!/usr/bin/env bash
# A thin stand-in for Hadoop's bin/hdfs, bin/yarn, bin/mapred and bin/hadoop, for the
# pseudo-cluster (dev-support/pseudo-cluster.sh): the Apache binary tarball, whose scripts do this
# on a real install, is not on Maven Central. Like them it sources libexec/shellprofile.d, asks
# each profile for its classpath and lets a profile's <command>_subcommand_<name> function name
# the class, so the distribution's profile is what puts mpCache on the classpath here too.
# Usage: HADOOP_HOME=... HADOOP_CONF_DIR=... hadoop-command.sh <hdfs|yarn|mapred|hadoop> <subcommand> [args]
# HADOOP_LOG_FILE (optional): the daemon's log file under HADOOP_LOG_DIR.
set -euo pipefail
: "${HADOOP_HOME:?HADOOP_HOME is not set}" "${HADOOP_CONF_DIR:?HADOOP_CONF_DIR is not set}"
if [[ $# -lt 2 ]]; then
  echo "Usage: $(basename "$0") <hdfs|yarn|mapred|hadoop> <subcommand> [args]" >&2
  exit 2
fi
HADOOP_SHELL_EXECNAME=$1
HADOOP_SUBCMD=$2
shift 2

CLASSPATH=$HADOOP_CONF_DIR
HADOOP_PROFILES=()
hadoop_add_classpath() {
  if [[ "${2:-}" = before ]]; then CLASSPATH="$1:$CLASSPATH"; else CLASSPATH="$CLASSPATH:$1"; fi
}
hadoop_add_profile() { HADOOP_PROFILES+=("$1"); }
hadoop_add_subcommand() { :; }
for profile in "$HADOOP_HOME"/libexec/shellprofile.d/*.sh; do
  [[ -e "$profile" ]] || continue
  # shellcheck source=/dev/null
  source "$profile"
done
# The stand-in install keeps every Hadoop jar in one folder; the HDFS web apps are under
# share/hadoop/hdfs, which Hadoop's own hdfs profile puts on the classpath.
hadoop_add_classpath "$HADOOP_HOME/share/hadoop/common/lib/*"
hadoop_add_classpath "$HADOOP_HOME/share/hadoop/hdfs"
for profile in "${HADOOP_PROFILES[@]+"${HADOOP_PROFILES[@]}"}"; do
  if declare -f "_${profile}_hadoop_classpath" >/dev/null; then
    "_${profile}_hadoop_classpath"
  fi
done

HADOOP_CLASSNAME=
if declare -f "${HADOOP_SHELL_EXECNAME}_subcommand_${HADOOP_SUBCMD}" >/dev/null; then
  "${HADOOP_SHELL_EXECNAME}_subcommand_${HADOOP_SUBCMD}" "$@"
else
  case "$HADOOP_SHELL_EXECNAME $HADOOP_SUBCMD" in
    "hdfs namenode") HADOOP_CLASSNAME=org.apache.hadoop.hdfs.server.namenode.NameNode ;;
    "hdfs datanode") HADOOP_CLASSNAME=org.apache.hadoop.hdfs.server.datanode.DataNode ;;
    "hdfs dfs" | "hadoop fs") HADOOP_CLASSNAME=org.apache.hadoop.fs.FsShell ;;
    "hdfs dfsadmin") HADOOP_CLASSNAME=org.apache.hadoop.hdfs.tools.DFSAdmin ;;
    "hdfs getconf") HADOOP_CLASSNAME=org.apache.hadoop.hdfs.tools.GetConf ;;
    "yarn resourcemanager") HADOOP_CLASSNAME=org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ;;
    "yarn nodemanager") HADOOP_CLASSNAME=org.apache.hadoop.yarn.server.nodemanager.NodeManager ;;
    "yarn node") HADOOP_CLASSNAME=org.apache.hadoop.yarn.client.cli.NodeCLI ;;
    "yarn application") HADOOP_CLASSNAME=org.apache.hadoop.yarn.client.cli.ApplicationCLI ;;
    "yarn jar" | "hadoop jar") HADOOP_CLASSNAME=org.apache.hadoop.util.RunJar ;;
    "mapred job") HADOOP_CLASSNAME=org.apache.hadoop.mapred.JobClient ;;
    "mapred historyserver") HADOOP_CLASSNAME=org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer ;;
    "hadoop version") HADOOP_CLASSNAME=org.apache.hadoop.util.VersionInfo ;;
    "hadoop classpath") echo "$CLASSPATH"; exit 0 ;;
    *) echo "$(basename "$0"): '$HADOOP_SHELL_EXECNAME $HADOOP_SUBCMD' is not a command this stand-in knows" >&2
       exit 2 ;;
  esac
fi

log_dir=${HADOOP_LOG_DIR:-$HADOOP_HOME/logs}
# What Hadoop 3.5's scripts pass on JDK 17, and the log settings its log4j.properties reads.
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -Xmx"${HADOOP_HEAPSIZE_MAX:-512m}" -Djava.net.preferIPv4Stack=true \
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
  --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED \
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.zip=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED \
  --add-opens=java.base/sun.security.x509=ALL-UNNAMED \
  -Dhadoop.home.dir="$HADOOP_HOME" -Dhadoop.log.dir="$log_dir" -Dyarn.log.dir="$log_dir" \
  -Dhadoop.log.file="${HADOOP_LOG_FILE:-client.log}" -Dyarn.log.file="${HADOOP_LOG_FILE:-client.log}" \
  -Dhadoop.root.logger="${HADOOP_ROOT_LOGGER:-WARN,console}" \
  -cp "$CLASSPATH" "$HADOOP_CLASSNAME" "$@"
