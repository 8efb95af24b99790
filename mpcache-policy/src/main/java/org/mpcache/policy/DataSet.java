package org.mpcache.policy;

/**
 * A data set: the unit of all-or-nothing caching (by default the HDFS directory that holds a
 * job's input). Identified by a dense number the caller assigns; its size is in blocks.
 */
public record DataSet(int id, int blocks) {
  public DataSet {
    if (blocks <= 0) {
      throw new IllegalArgumentException("data set " + id + " has " + blocks + " blocks");
    }
  }
}
