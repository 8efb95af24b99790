#!/usr/bin/env bash
# mpCache for Apache Hadoop 3.5.x (https://github.com/mpcache; docs/operations.md).
# Hadoop's scripts (bin/hdfs, bin/yarn, bin/mapred, bin/hadoop) source every file in
# libexec/shellprofile.d: this one puts share/hadoop/mpcache on the classpath of the daemons and
# clients they start, and adds `hdfs mpcacheadmin`. Tasks and ApplicationMasters are not started
# by these scripts: they get the jars through mapreduce.application.classpath
# (etc/hadoop/mpcache-samples/mapred-site.xml).

hadoop_add_profile mpcache

function _mpcache_hadoop_classpath
{
  local dir="${HADOOP_HOME}/share/hadoop/mpcache"
  if [[ -d "${dir}" ]]; then
    hadoop_add_classpath "${dir}"'/*'
  fi
}

if [[ "${HADOOP_SHELL_EXECNAME}" = hdfs ]]; then
  hadoop_add_subcommand "mpcacheadmin" admin "mpCache: cache report, data sets, SSD block locations"
fi

## @description  hdfs mpcacheadmin: the mpCache admin tool
## @audience     public
## @stability    evolving
## @replaceable  yes
function hdfs_subcommand_mpcacheadmin
{
  # shellcheck disable=SC2034
  HADOOP_CLASSNAME=org.mpcache.tools.MpCacheAdmin
}
