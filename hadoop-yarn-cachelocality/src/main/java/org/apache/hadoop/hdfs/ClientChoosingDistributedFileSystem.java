package org.apache.hadoop.hdfs;

import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * A DistributedFileSystem whose subclasses bring their own DFSClient. Hadoop creates the client
 * in a package-private method, hence this class in Hadoop's package; it does nothing else.
 */
public abstract class ClientChoosingDistributedFileSystem extends DistributedFileSystem {
  @Override
  void initDFSClient(URI uri, Configuration conf) throws IOException {
    this.dfs = createClient(uri, conf, statistics);
  }

  /** Called from {@link #initialize}, before the subclass's own initialisation. */
  protected abstract DFSClient createClient(URI uri, Configuration conf,
      FileSystem.Statistics statistics) throws IOException;
}
